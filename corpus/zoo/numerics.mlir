module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<65536xf32>, %arg1: tensor<65536xf32>, %arg2: tensor<65536xi32>) -> (tensor<65536xf32> {jax.result_info = "result[0]"}, tensor<65536xi32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.abs %arg0 : tensor<65536xf32>
    %1 = stablehlo.log_plus_one %0 : tensor<65536xf32>
    %cst = stablehlo.constant dense<-4.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %2 = call @clip(%arg0, %cst, %cst_0) : (tensor<65536xf32>, tensor<f32>, tensor<f32>) -> tensor<65536xf32>
    %3 = stablehlo.exponential_minus_one %2 : tensor<65536xf32>
    %4 = stablehlo.add %1, %3 : tensor<65536xf32>
    %5 = chlo.erfc %arg1 : tensor<65536xf32> -> tensor<65536xf32>
    %6 = stablehlo.divide %arg0, %arg1 : tensor<65536xf32>
    %7 = stablehlo.is_finite %6 : (tensor<65536xf32>) -> tensor<65536xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = call @_where(%7, %6, %cst_1) : (tensor<65536xi1>, tensor<65536xf32>, tensor<f32>) -> tensor<65536xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %10 = stablehlo.multiply %arg0, %9 : tensor<65536xf32>
    %cst_3 = stablehlo.constant dense<0.699999988> : tensor<f32>
    %11 = call @remainder(%10, %cst_3) : (tensor<65536xf32>, tensor<f32>) -> tensor<65536xf32>
    %12 = stablehlo.floor %arg1 : tensor<65536xf32>
    %13 = stablehlo.sign %arg0 : tensor<65536xf32>
    %14 = stablehlo.multiply %12, %13 : tensor<65536xf32>
    %15 = stablehlo.add %11, %14 : tensor<65536xf32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %17 = stablehlo.shift_left %arg2, %16 : tensor<65536xi32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %19 = stablehlo.shift_right_arithmetic %17, %18 : tensor<65536xi32>
    %20 = stablehlo.add %4, %5 : tensor<65536xf32>
    %21 = stablehlo.add %20, %8 : tensor<65536xf32>
    %22 = stablehlo.add %21, %15 : tensor<65536xf32>
    %c_5 = stablehlo.constant dense<2> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %24 = stablehlo.shift_right_logical %19, %23 : tensor<65536xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<5> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %26 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<65536xi32>
    %27 = stablehlo.clamp %25, %arg2, %26 : tensor<65536xi32>
    %28 = stablehlo.add %24, %27 : tensor<65536xi32>
    return %22, %28 : tensor<65536xf32>, tensor<65536xi32>
  }
  func.func private @clip(%arg0: tensor<65536xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<65536xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<65536xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<65536xf32>
    return %5 : tensor<65536xf32>
  }
  func.func private @_where(%arg0: tensor<65536xi1>, %arg1: tensor<65536xf32>, %arg2: tensor<f32>) -> tensor<65536xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<65536xi1>, tensor<65536xf32>
    return %2 : tensor<65536xf32>
  }
  func.func private @remainder(%arg0: tensor<65536xf32>, %arg1: tensor<f32>) -> tensor<65536xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<65536xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %4 = stablehlo.compare NE, %2, %3, FLOAT : (tensor<65536xf32>, tensor<65536xf32>) -> tensor<65536xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %6 = stablehlo.compare LT, %2, %5, FLOAT : (tensor<65536xf32>, tensor<65536xf32>) -> tensor<65536xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.compare LT, %0, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<i1>) -> tensor<65536xi1>
    %9 = stablehlo.compare NE, %6, %8, UNSIGNED : (tensor<65536xi1>, tensor<65536xi1>) -> tensor<65536xi1>
    %10 = stablehlo.and %9, %4 : tensor<65536xi1>
    %11 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<65536xf32>
    %12 = stablehlo.add %2, %11 : tensor<65536xf32>
    %13 = stablehlo.select %10, %12, %2 : tensor<65536xi1>, tensor<65536xf32>
    return %13 : tensor<65536xf32>
  }
}
