module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x64xf32>, %arg1: tensor<64x64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<2048xi32>, %arg4: tensor<2048xi32>) -> (tensor<256x64xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2048xi32>
    %1 = stablehlo.compare LT, %arg3, %0, SIGNED : (tensor<2048xi32>, tensor<2048xi32>) -> tensor<2048xi1>
    %c_0 = stablehlo.constant dense<256> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2048xi32>
    %3 = stablehlo.add %arg3, %2 : tensor<2048xi32>
    %4 = stablehlo.select %1, %3, %arg3 : tensor<2048xi1>, tensor<2048xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<256x64xf32>, tensor<2048x1xi32>) -> tensor<2048x64xf32>
    %7 = stablehlo.dot_general %6, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2048x64xf32>, tensor<64x64xf32>) -> tensor<2048x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %9 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %10 = "stablehlo.scatter"(%8, %9, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %24 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %24 : tensor<f32>
    }) : (tensor<256x64xf32>, tensor<2048x1xi32>, tensor<2048x64xf32>) -> tensor<256x64xf32>
    %11 = call @relu(%10) : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2048xi32>
    %13 = stablehlo.compare LT, %arg3, %12, SIGNED : (tensor<2048xi32>, tensor<2048xi32>) -> tensor<2048xi1>
    %c_2 = stablehlo.constant dense<256> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2048xi32>
    %15 = stablehlo.add %arg3, %14 : tensor<2048xi32>
    %16 = stablehlo.select %13, %15, %arg3 : tensor<2048xi1>, tensor<2048xi32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %18 = "stablehlo.gather"(%11, %17) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 64>}> : (tensor<256x64xf32>, tensor<2048x1xi32>) -> tensor<2048x64xf32>
    %19 = stablehlo.dot_general %18, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2048x64xf32>, tensor<64x64xf32>) -> tensor<2048x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %21 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<2048xi32>) -> tensor<2048x1xi32>
    %22 = "stablehlo.scatter"(%20, %21, %19) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %24 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %24 : tensor<f32>
    }) : (tensor<256x64xf32>, tensor<2048x1xi32>, tensor<2048x64xf32>) -> tensor<256x64xf32>
    %23 = call @relu(%22) : (tensor<256x64xf32>) -> tensor<256x64xf32>
    return %23 : tensor<256x64xf32>
  }
  func.func private @relu(%arg0: tensor<256x64xf32>) -> tensor<256x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<256x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<256x64xf32>
    return %1 : tensor<256x64xf32>
  }
}
