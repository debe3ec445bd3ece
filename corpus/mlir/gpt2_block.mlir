module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x64xf32>, %arg1: tensor<256xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64xf32>, %arg4: tensor<192xf32>, %arg5: tensor<64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64x256xf32>, %arg10: tensor<64x64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x192xf32>) -> (tensor<16x64xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_0 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<16x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x64xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_2 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<16x1xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %12 = stablehlo.add %10, %11 : tensor<16x1xf32>
    %13 = stablehlo.rsqrt %12 : tensor<16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %15 = stablehlo.multiply %5, %14 : tensor<16x64xf32>
    %16 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %18 = stablehlo.multiply %15, %17 : tensor<16x64xf32>
    %19 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %21 = stablehlo.add %18, %20 : tensor<16x64xf32>
    %22 = stablehlo.dot_general %21, %arg12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x192xf32>) -> tensor<16x192xf32>
    %23 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<16x192xf32>
    %25 = stablehlo.add %22, %24 : tensor<16x192xf32>
    %26 = stablehlo.slice %25 [0:16, 0:64] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %27 = stablehlo.slice %25 [0:16, 64:128] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %28 = stablehlo.slice %25 [0:16, 128:192] : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %29 = stablehlo.reshape %26 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0, 2] : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %31 = stablehlo.reshape %27 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0, 2] : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %33 = stablehlo.reshape %28 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0, 2] : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %35 = stablehlo.dot_general %30, %32, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %cst_4 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %36 = stablehlo.sqrt %cst_4 : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<f32>) -> tensor<4x16x16xf32>
    %38 = stablehlo.divide %35, %37 : tensor<4x16x16xf32>
    %39 = stablehlo.iota dim = 0 : tensor<16xi32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %41 = stablehlo.iota dim = 0 : tensor<16xi32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %43 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %44 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %45 = stablehlo.compare LE, %43, %44, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %46 = stablehlo.broadcast_in_dim %45, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %47 = call @_where(%46, %38, %cst_5) : (tensor<1x16x16xi1>, tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %48 = stablehlo.reduce(%47 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %51 = stablehlo.subtract %47, %50 : tensor<4x16x16xf32>
    %52 = stablehlo.exponential %51 : tensor<4x16x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%52 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %56 = stablehlo.divide %52, %55 : tensor<4x16x16xf32>
    %57 = stablehlo.dot_general %56, %34, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %58 = stablehlo.transpose %57, dims = [1, 0, 2] : (tensor<4x16x16xf32>) -> tensor<16x4x16xf32>
    %59 = stablehlo.reshape %58 : (tensor<16x4x16xf32>) -> tensor<16x64xf32>
    %60 = stablehlo.dot_general %59, %arg10, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %61 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %63 = stablehlo.add %60, %62 : tensor<16x64xf32>
    %64 = stablehlo.add %arg0, %63 : tensor<16x64xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %65 = stablehlo.reduce(%64 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_9 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %68 = stablehlo.divide %66, %67 : tensor<16x1xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %70 = stablehlo.subtract %64, %69 : tensor<16x64xf32>
    %71 = stablehlo.multiply %70, %70 : tensor<16x64xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.reduce(%71 init: %cst_10) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_11 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %75 = stablehlo.divide %73, %74 : tensor<16x1xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %77 = stablehlo.add %75, %76 : tensor<16x1xf32>
    %78 = stablehlo.rsqrt %77 : tensor<16x1xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %80 = stablehlo.multiply %70, %79 : tensor<16x64xf32>
    %81 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %83 = stablehlo.multiply %80, %82 : tensor<16x64xf32>
    %84 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %86 = stablehlo.add %83, %85 : tensor<16x64xf32>
    %87 = stablehlo.dot_general %86, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %88 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %90 = stablehlo.add %87, %89 : tensor<16x256xf32>
    %cst_13 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %92 = stablehlo.multiply %91, %90 : tensor<16x256xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %94 = stablehlo.multiply %93, %90 : tensor<16x256xf32>
    %95 = stablehlo.multiply %94, %90 : tensor<16x256xf32>
    %96 = stablehlo.multiply %95, %90 : tensor<16x256xf32>
    %97 = stablehlo.add %90, %96 : tensor<16x256xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %99 = stablehlo.multiply %98, %97 : tensor<16x256xf32>
    %100 = stablehlo.tanh %99 : tensor<16x256xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x256xf32>
    %102 = stablehlo.add %101, %100 : tensor<16x256xf32>
    %103 = stablehlo.multiply %92, %102 : tensor<16x256xf32>
    %104 = stablehlo.dot_general %103, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %105 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %107 = stablehlo.add %104, %106 : tensor<16x64xf32>
    %108 = stablehlo.add %64, %107 : tensor<16x64xf32>
    return %108 : tensor<16x64xf32>
  }
  func.func private @_where(%arg0: tensor<1x16x16xi1>, %arg1: tensor<4x16x16xf32>, %arg2: tensor<f32>) -> tensor<4x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x16x16xi1>) -> tensor<4x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x16x16xi1>, tensor<4x16x16xf32>
    return %3 : tensor<4x16x16xf32>
  }
}
