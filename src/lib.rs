//! ptir
