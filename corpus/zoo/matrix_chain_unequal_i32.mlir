module @jit_chain4 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x1024xi32>, %arg1: tensor<1024x64xi32>, %arg2: tensor<64x1024xi32>, %arg3: tensor<1024x16xi32>) -> (tensor<128x16xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x1024xi32>, tensor<1024x64xi32>) -> tensor<128x64xi32>
    %1 = stablehlo.dot_general %0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x64xi32>, tensor<64x1024xi32>) -> tensor<128x1024xi32>
    %2 = stablehlo.dot_general %1, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x1024xi32>, tensor<1024x16xi32>) -> tensor<128x16xi32>
    return %2 : tensor<128x16xi32>
  }
}
