module @jit_remat_mlp_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<32x64xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<64x64xf32> {jax.result_info = "result[1][0][0]"}, tensor<64xf32> {jax.result_info = "result[1][0][1]"}, tensor<64x64xf32> {jax.result_info = "result[1][1][0]"}, tensor<64xf32> {jax.result_info = "result[1][1][1]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<32x64xf32>
    %3 = stablehlo.add %0, %2 : tensor<32x64xf32>
    %4 = stablehlo.tanh %3 : tensor<32x64xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<32x64xf32>
    %8 = stablehlo.add %5, %7 : tensor<32x64xf32>
    %9 = stablehlo.tanh %8 : tensor<32x64xf32>
    %10 = stablehlo.subtract %9, %arg5 : tensor<32x64xf32>
    %11 = stablehlo.multiply %10, %10 : tensor<32x64xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %13 = stablehlo.multiply %12, %10 : tensor<32x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%11 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<2.048000e+03> : tensor<f32>
    %15 = stablehlo.divide %14, %cst_1 : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<2.048000e+03> : tensor<f32>
    %16 = stablehlo.divide %cst_2, %cst_3 : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %18 = stablehlo.multiply %17, %13 : tensor<32x64xf32>
    %19:4 = stablehlo.optimization_barrier %4, %arg2, %arg3, %18 : tensor<32x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<32x64xf32>
    %20 = stablehlo.dot_general %19#0, %19#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %21 = stablehlo.broadcast_in_dim %19#2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<32x64xf32>
    %23 = stablehlo.add %20, %22 : tensor<32x64xf32>
    %24 = stablehlo.tanh %23 : tensor<32x64xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %26 = stablehlo.subtract %25, %24 : tensor<32x64xf32>
    %27 = stablehlo.multiply %19#3, %26 : tensor<32x64xf32>
    %28 = stablehlo.multiply %27, %24 : tensor<32x64xf32>
    %29 = stablehlo.add %27, %28 : tensor<32x64xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<32x64xf32>, tensor<f32>) -> tensor<64xf32>
    %31 = stablehlo.reshape %30 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.reduce(%31 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %33 = stablehlo.dot_general %29, %19#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %35 = stablehlo.dot_general %29, %19#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %36:4 = stablehlo.optimization_barrier %arg4, %arg0, %arg1, %35 : tensor<32x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<32x64xf32>
    %37 = stablehlo.dot_general %36#0, %36#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %38 = stablehlo.broadcast_in_dim %36#2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<32x64xf32>
    %40 = stablehlo.add %37, %39 : tensor<32x64xf32>
    %41 = stablehlo.tanh %40 : tensor<32x64xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32x64xf32>
    %43 = stablehlo.subtract %42, %41 : tensor<32x64xf32>
    %44 = stablehlo.multiply %36#3, %43 : tensor<32x64xf32>
    %45 = stablehlo.multiply %44, %41 : tensor<32x64xf32>
    %46 = stablehlo.add %44, %45 : tensor<32x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<32x64xf32>, tensor<f32>) -> tensor<64xf32>
    %48 = stablehlo.reshape %47 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %50 = stablehlo.dot_general %46, %36#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<64x64xf32>
    %51 = stablehlo.transpose %50, dims = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %cst_10 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %53 = stablehlo.multiply %52, %51 : tensor<64x64xf32>
    %54 = stablehlo.subtract %arg0, %53 : tensor<64x64xf32>
    %cst_11 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %56 = stablehlo.multiply %55, %49 : tensor<64xf32>
    %57 = stablehlo.subtract %arg1, %56 : tensor<64xf32>
    %cst_12 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<64x64xf32>
    %59 = stablehlo.multiply %58, %34 : tensor<64x64xf32>
    %60 = stablehlo.subtract %arg2, %59 : tensor<64x64xf32>
    %cst_13 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %62 = stablehlo.multiply %61, %32 : tensor<64xf32>
    %63 = stablehlo.subtract %arg3, %62 : tensor<64xf32>
    return %15, %54, %57, %60, %63 : tensor<f32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>
  }
}
