//! `keyword_enum!`: an enum of the text format's keywords (ops' attribute values, dtypes'
//! kinds...), with `ALL`, `name`, `from_name` and `Display`, for every module of the IR that
//! declares one (`ops`, `gather`).

macro_rules! keyword_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $kw:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum $name { $($(#[$vm])* $variant),* }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The keyword of the text format.
            pub fn name(self) -> &'static str {
                match self { $($name::$variant => $kw),* }
            }

            /// The variant with this keyword.
            pub fn from_name(s: &str) -> Option<Self> {
                match s { $($kw => Some($name::$variant),)* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
pub(crate) use keyword_enum;
