module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32x512xbf16>, %arg1: tensor<1024x512xi8>, %arg2: tensor<1024xbf16>, %arg3: tensor<512x1024xi8>, %arg4: tensor<512xbf16>) -> (tensor<32x512xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<1024x512xi8>) -> tensor<1024x512xbf16>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<1024xbf16>) -> tensor<1024x1xbf16>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1024x1xbf16>) -> tensor<1024x512xbf16>
    %3 = stablehlo.multiply %0, %2 : tensor<1024x512xbf16>
    %4 = stablehlo.dot_general %arg0, %3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x512xbf16>, tensor<1024x512xbf16>) -> tensor<32x1024xbf16>
    %5 = stablehlo.multiply %4, %4 : tensor<32x1024xbf16>
    %6 = stablehlo.multiply %5, %4 : tensor<32x1024xbf16>
    %cst = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<32x1024xbf16>
    %8 = stablehlo.multiply %7, %6 : tensor<32x1024xbf16>
    %9 = stablehlo.add %4, %8 : tensor<32x1024xbf16>
    %cst_0 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<32x1024xbf16>
    %11 = stablehlo.multiply %10, %9 : tensor<32x1024xbf16>
    %12 = stablehlo.tanh %11 : tensor<32x1024xbf16>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<32x1024xbf16>
    %14 = stablehlo.add %13, %12 : tensor<32x1024xbf16>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<bf16>) -> tensor<32x1024xbf16>
    %16 = stablehlo.multiply %15, %14 : tensor<32x1024xbf16>
    %17 = stablehlo.multiply %4, %16 : tensor<32x1024xbf16>
    %18 = stablehlo.convert %arg3 : (tensor<512x1024xi8>) -> tensor<512x1024xbf16>
    %19 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<512xbf16>) -> tensor<512x1xbf16>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<512x1xbf16>) -> tensor<512x1024xbf16>
    %21 = stablehlo.multiply %18, %20 : tensor<512x1024xbf16>
    %22 = stablehlo.dot_general %17, %21, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x1024xbf16>, tensor<512x1024xbf16>) -> tensor<32x512xbf16>
    return %22 : tensor<32x512xbf16>
  }
}
