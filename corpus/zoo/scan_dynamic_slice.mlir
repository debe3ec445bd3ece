module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<136x64xf32>, %arg1: tensor<9xf32>) -> (tensor<128x64xf32> {jax.result_info = "result[0]"}, tensor<128xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x64xf32>
    %1 = stablehlo.iota dim = 0 : tensor<128xi32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3:6 = stablehlo.while(%iterArg = %1, %iterArg_1 = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c, %iterArg_4 = %0, %iterArg_5 = %2) : tensor<128xi32>, tensor<136x64xf32>, tensor<9xf32>, tensor<i32>, tensor<128x64xf32>, tensor<128xf32>
    cond {
      %c_6 = stablehlo.constant dense<128> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<128xi32>, tensor<i32>) -> tensor<i32>
      %5:2 = func.call @closed_call(%iterArg_1, %iterArg_2, %iterArg_4, %4) : (tensor<136x64xf32>, tensor<9xf32>, tensor<128x64xf32>, tensor<i32>) -> (tensor<128x64xf32>, tensor<f32>)
      %6 = func.call @dynamic_update_index_in_dim(%iterArg_5, %5#1, %iterArg_3) : (tensor<128xf32>, tensor<f32>, tensor<i32>) -> tensor<128xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %7, %5#0, %6 : tensor<128xi32>, tensor<136x64xf32>, tensor<9xf32>, tensor<i32>, tensor<128x64xf32>, tensor<128xf32>
    }
    return %3#4, %3#5 : tensor<128x64xf32>, tensor<128xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<128xi32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<128xi32>, tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1xi32>) -> tensor<i32>
    return %1 : tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<136x64xf32>, %arg1: tensor<9xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<i32>) -> (tensor<128x64xf32>, tensor<f32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg3, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<136> : tensor<i32>
    %1 = stablehlo.add %arg3, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg3 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.dynamic_slice %arg0, %2, %c_1, sizes = [9, 64] : (tensor<136x64xf32>, tensor<i32>, tensor<i32>) -> tensor<9x64xf32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<9xf32>) -> tensor<9x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<9x1xf32>) -> tensor<9x64xf32>
    %6 = stablehlo.multiply %3, %5 : tensor<9x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<9x64xf32>, tensor<f32>) -> tensor<64xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %arg3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<128> : tensor<i32>
    %10 = stablehlo.add %arg3, %c_3 : tensor<i32>
    %11 = stablehlo.select %9, %10, %arg3 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.dynamic_update_slice %arg2, %8, %11, %c_4 : (tensor<128x64xf32>, tensor<1x64xf32>, tensor<i32>, tensor<i32>) -> tensor<128x64xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%7 init: %cst_5) applies stablehlo.maximum across dimensions = [0] : (tensor<64xf32>, tensor<f32>) -> tensor<f32>
    return %12, %13 : tensor<128x64xf32>, tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<128xf32>, %arg1: tensor<f32>, %arg2: tensor<i32>) -> tensor<128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<128xf32>, tensor<1xf32>, tensor<i32>) -> tensor<128xf32>
    return %1 : tensor<128xf32>
  }
}
