module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4096x128xf32>, %arg1: tensor<512xi32>, %arg2: tensor<128x128xf32>) -> (tensor<512x128xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<512xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<512xi32>, tensor<512xi32>) -> tensor<512xi1>
    %c_0 = stablehlo.constant dense<4096> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<512xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<512xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<512xi1>, tensor<512xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<512xi32>) -> tensor<512x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 128>}> : (tensor<4096x128xf32>, tensor<512x1xi32>) -> tensor<512x128xf32>
    %7 = stablehlo.dot_general %6, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<512x128xf32>, tensor<128x128xf32>) -> tensor<512x128xf32>
    %8 = stablehlo.tanh %7 : tensor<512x128xf32>
    return %8 : tensor<512x128xf32>
  }
}
