module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512x512xf32>) -> (tensor<512x512xf32> {jax.result_info = "result"}) {
    %0 = call @_pad(%arg0) : (tensor<512x512xf32>) -> tensor<514x514xf32>
    %1 = stablehlo.slice %0 [0:512, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %2 = stablehlo.slice %0 [2:514, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %3 = stablehlo.add %1, %2 : tensor<512x512xf32>
    %4 = stablehlo.slice %0 [1:513, 0:512] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %5 = stablehlo.add %3, %4 : tensor<512x512xf32>
    %6 = stablehlo.slice %0 [1:513, 2:514] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %7 = stablehlo.add %5, %6 : tensor<512x512xf32>
    %cst = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<512x512xf32>
    %10 = call @_pad(%9) : (tensor<512x512xf32>) -> tensor<514x514xf32>
    %11 = stablehlo.slice %10 [0:512, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %12 = stablehlo.slice %10 [2:514, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %13 = stablehlo.add %11, %12 : tensor<512x512xf32>
    %14 = stablehlo.slice %10 [1:513, 0:512] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %15 = stablehlo.add %13, %14 : tensor<512x512xf32>
    %16 = stablehlo.slice %10 [1:513, 2:514] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %17 = stablehlo.add %15, %16 : tensor<512x512xf32>
    %cst_0 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %19 = stablehlo.multiply %18, %17 : tensor<512x512xf32>
    %20 = call @_pad(%19) : (tensor<512x512xf32>) -> tensor<514x514xf32>
    %21 = stablehlo.slice %20 [0:512, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %22 = stablehlo.slice %20 [2:514, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %23 = stablehlo.add %21, %22 : tensor<512x512xf32>
    %24 = stablehlo.slice %20 [1:513, 0:512] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %25 = stablehlo.add %23, %24 : tensor<512x512xf32>
    %26 = stablehlo.slice %20 [1:513, 2:514] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %27 = stablehlo.add %25, %26 : tensor<512x512xf32>
    %cst_1 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %29 = stablehlo.multiply %28, %27 : tensor<512x512xf32>
    %30 = call @_pad(%29) : (tensor<512x512xf32>) -> tensor<514x514xf32>
    %31 = stablehlo.slice %30 [0:512, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %32 = stablehlo.slice %30 [2:514, 1:513] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %33 = stablehlo.add %31, %32 : tensor<512x512xf32>
    %34 = stablehlo.slice %30 [1:513, 0:512] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %35 = stablehlo.add %33, %34 : tensor<512x512xf32>
    %36 = stablehlo.slice %30 [1:513, 2:514] : (tensor<514x514xf32>) -> tensor<512x512xf32>
    %37 = stablehlo.add %35, %36 : tensor<512x512xf32>
    %cst_2 = stablehlo.constant dense<2.500000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<512x512xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<512x512xf32>
    return %39 : tensor<512x512xf32>
  }
  func.func private @_pad(%arg0: tensor<512x512xf32>) -> tensor<514x514xf32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:512] : (tensor<512x512xf32>) -> tensor<1x512xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 2] : (tensor<1x512xf32>) -> tensor<1x1x512xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x1x512xf32>) -> tensor<1x512xf32>
    %3 = stablehlo.slice %arg0 [511:512, 0:512] : (tensor<512x512xf32>) -> tensor<1x512xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x512xf32>) -> tensor<1x1x512xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x1x512xf32>) -> tensor<1x512xf32>
    %6 = stablehlo.concatenate %2, %arg0, %5, dim = 0 : (tensor<1x512xf32>, tensor<512x512xf32>, tensor<1x512xf32>) -> tensor<514x512xf32>
    %7 = stablehlo.slice %6 [0:514, 0:1] : (tensor<514x512xf32>) -> tensor<514x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<514x1xf32>) -> tensor<514x1x1xf32>
    %9 = stablehlo.reshape %8 : (tensor<514x1x1xf32>) -> tensor<514x1xf32>
    %10 = stablehlo.slice %6 [0:514, 511:512] : (tensor<514x512xf32>) -> tensor<514x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<514x1xf32>) -> tensor<514x1x1xf32>
    %12 = stablehlo.reshape %11 : (tensor<514x1x1xf32>) -> tensor<514x1xf32>
    %13 = stablehlo.concatenate %9, %6, %12, dim = 1 : (tensor<514x1xf32>, tensor<514x512xf32>, tensor<514x1xf32>) -> tensor<514x514xf32>
    return %13 : tensor<514x514xf32>
  }
}
