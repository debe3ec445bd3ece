module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<65536xf32>, %arg1: tensor<f32>) -> (tensor<65536xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg1, %iterArg_0 = %c, %iterArg_1 = %arg0) : tensor<f32>, tensor<i32>, tensor<65536xf32>
    cond {
      %c_2 = stablehlo.constant dense<16> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = func.call @closed_call(%iterArg, %iterArg_1) : (tensor<f32>, tensor<65536xf32>) -> tensor<65536xf32>
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
      stablehlo.return %iterArg, %2, %1 : tensor<f32>, tensor<i32>, tensor<65536xf32>
    }
    return %0#2 : tensor<65536xf32>
  }
  func.func private @closed_call(%arg0: tensor<f32>, %arg1: tensor<65536xf32>) -> tensor<65536xf32> {
    %0 = stablehlo.slice %arg1 [0:1] : (tensor<65536xf32>) -> tensor<1xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<1xf32>
    %3 = stablehlo.slice %arg1 [0:65534] : (tensor<65536xf32>) -> tensor<65534xf32>
    %4 = stablehlo.slice %arg1 [1:65535] : (tensor<65536xf32>) -> tensor<65534xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<65534xf32>
    %6 = stablehlo.multiply %5, %4 : tensor<65534xf32>
    %7 = stablehlo.subtract %3, %6 : tensor<65534xf32>
    %8 = stablehlo.slice %arg1 [2:65536] : (tensor<65536xf32>) -> tensor<65534xf32>
    %9 = stablehlo.add %7, %8 : tensor<65534xf32>
    %10 = stablehlo.slice %arg1 [0:1] : (tensor<65536xf32>) -> tensor<1xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<1xf32>
    %13 = stablehlo.concatenate %2, %9, %12, dim = 0 : (tensor<1xf32>, tensor<65534xf32>, tensor<1xf32>) -> tensor<65536xf32>
    %14 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %15 = stablehlo.multiply %14, %13 : tensor<65536xf32>
    %16 = stablehlo.add %arg1, %15 : tensor<65536xf32>
    return %16 : tensor<65536xf32>
  }
}
