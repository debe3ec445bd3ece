module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1048576xui32>, %arg1: tensor<ui32>) -> (tensor<1048576xui32> {jax.result_info = "result[0]"}, tensor<1048576xui32> {jax.result_info = "result[1]"}, tensor<1048576xf32> {jax.result_info = "result[2]"}, tensor<1048576xui32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %1 = stablehlo.xor %arg0, %0 : tensor<1048576xui32>
    %c = stablehlo.constant dense<13> : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %3 = stablehlo.shift_left %1, %2 : tensor<1048576xui32>
    %4 = stablehlo.xor %1, %3 : tensor<1048576xui32>
    %c_0 = stablehlo.constant dense<17> : tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %6 = stablehlo.shift_right_logical %4, %5 : tensor<1048576xui32>
    %7 = stablehlo.xor %4, %6 : tensor<1048576xui32>
    %c_1 = stablehlo.constant dense<2654435761> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %9 = stablehlo.multiply %7, %8 : tensor<1048576xui32>
    %c_2 = stablehlo.constant dense<5> : tensor<ui32>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %11 = stablehlo.shift_left %9, %10 : tensor<1048576xui32>
    %12 = stablehlo.xor %9, %11 : tensor<1048576xui32>
    %c_3 = stablehlo.constant dense<11> : tensor<ui32>
    %13 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %14 = stablehlo.shift_right_logical %12, %13 : tensor<1048576xui32>
    %15 = stablehlo.xor %12, %14 : tensor<1048576xui32>
    %c_4 = stablehlo.constant dense<2654435761> : tensor<ui32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %17 = stablehlo.multiply %15, %16 : tensor<1048576xui32>
    %c_5 = stablehlo.constant dense<9> : tensor<ui32>
    %18 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %19 = stablehlo.shift_right_logical %17, %18 : tensor<1048576xui32>
    %c_6 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %20 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %21 = stablehlo.or %19, %20 : tensor<1048576xui32>
    %22 = stablehlo.bitcast_convert %21 : (tensor<1048576xui32>) -> tensor<1048576xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1048576xf32>
    %24 = stablehlo.subtract %22, %23 : tensor<1048576xf32>
    %25 = stablehlo.popcnt %17 : tensor<1048576xui32>
    %c_7 = stablehlo.constant dense<2147483648> : tensor<ui32>
    %26 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<ui32>) -> tensor<1048576xui32>
    %27 = stablehlo.compare GT, %17, %26, UNSIGNED : (tensor<1048576xui32>, tensor<1048576xui32>) -> tensor<1048576xi1>
    %28 = stablehlo.convert %27 : (tensor<1048576xi1>) -> tensor<1048576xui32>
    return %17, %25, %24, %28 : tensor<1048576xui32>, tensor<1048576xui32>, tensor<1048576xf32>, tensor<1048576xui32>
  }
}
