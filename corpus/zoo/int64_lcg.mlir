module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<262144xi64>, %arg1: tensor<i64>) -> (tensor<262144xi64> {jax.result_info = "result[0]"}, tensor<i64> {jax.result_info = "result[1]"}, tensor<256xi64> {jax.result_info = "result[2]"}, tensor<i64> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<6364136223846793005> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %1 = stablehlo.multiply %arg0, %0 : tensor<262144xi64>
    %c_0 = stablehlo.constant dense<1442695040888963407> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %3 = stablehlo.add %1, %2 : tensor<262144xi64>
    %c_1 = stablehlo.constant dense<33> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %5 = stablehlo.shift_right_logical %3, %4 : tensor<262144xi64>
    %c_2 = stablehlo.constant dense<7> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %7 = stablehlo.shift_right_arithmetic %3, %6 : tensor<262144xi64>
    %8 = stablehlo.xor %5, %7 : tensor<262144xi64>
    %c_3 = stablehlo.constant dense<1000> : tensor<i64>
    %9 = call @remainder(%8, %c_3) : (tensor<262144xi64>, tensor<i64>) -> tensor<262144xi64>
    %c_4 = stablehlo.constant dense<500> : tensor<i64>
    %10 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %11 = stablehlo.subtract %9, %10 : tensor<262144xi64>
    %12 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %13 = stablehlo.multiply %11, %12 : tensor<262144xi64>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %14 = stablehlo.reduce(%11 init: %c_5) applies stablehlo.add across dimensions = [0] : (tensor<262144xi64>, tensor<i64>) -> tensor<i64>
    %15 = stablehlo.slice %11 [0:256] : (tensor<262144xi64>) -> tensor<256xi64>
    %16 = call @cumsum(%15) : (tensor<256xi64>) -> tensor<256xi64>
    %17 = stablehlo.abs %11 : tensor<262144xi64>
    %c_6 = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
    %18 = stablehlo.reduce(%17 init: %c_6) applies stablehlo.maximum across dimensions = [0] : (tensor<262144xi64>, tensor<i64>) -> tensor<i64>
    return %13, %14, %16, %18 : tensor<262144xi64>, tensor<i64>, tensor<256xi64>, tensor<i64>
  }
  func.func private @remainder(%arg0: tensor<262144xi64>, %arg1: tensor<i64>) -> tensor<262144xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %4 = stablehlo.remainder %arg0, %3 : tensor<262144xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<262144xi64>, tensor<262144xi64>) -> tensor<262144xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<262144xi64>, tensor<262144xi64>) -> tensor<262144xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<262144xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<262144xi1>, tensor<262144xi1>) -> tensor<262144xi1>
    %12 = stablehlo.and %11, %6 : tensor<262144xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<262144xi64>
    %14 = stablehlo.add %4, %13 : tensor<262144xi64>
    %15 = stablehlo.select %12, %14, %4 : tensor<262144xi1>, tensor<262144xi64>
    return %15 : tensor<262144xi64>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<i64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i64>
    return %0 : tensor<i64>
  }
  func.func private @cumsum(%arg0: tensor<256xi64>) -> tensor<256xi64> {
    %0 = call @cumsum_0(%arg0) : (tensor<256xi64>) -> tensor<256xi64>
    return %0 : tensor<256xi64>
  }
  func.func private @cumsum_0(%arg0: tensor<256xi64>) -> tensor<256xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[255, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 256>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<256xi64>, tensor<i64>) -> tensor<256xi64>
    return %1 : tensor<256xi64>
  }
}
