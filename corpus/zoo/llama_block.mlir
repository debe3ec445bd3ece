module @jit_llama_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32>, %arg1: tensor<256xf32>, %arg2: tensor<256x256xf32>, %arg3: tensor<256x256xf32>, %arg4: tensor<256x256xf32>, %arg5: tensor<256x256xf32>, %arg6: tensor<256xf32>, %arg7: tensor<256x688xf32>, %arg8: tensor<256x688xf32>, %arg9: tensor<688x256xf32>) -> (tensor<128x256xf32> {jax.result_info = "result"}) {
    %0 = chlo.square %arg0 : tensor<128x256xf32> -> tensor<128x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<128x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %6 = stablehlo.add %4, %5 : tensor<128x1xf32>
    %7 = stablehlo.rsqrt %6 : tensor<128x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %9 = stablehlo.multiply %arg0, %8 : tensor<128x256xf32>
    %10 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %12 = stablehlo.multiply %9, %11 : tensor<128x256xf32>
    %13 = stablehlo.dot_general %12, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %14 = stablehlo.reshape %13 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %16 = stablehlo.dot_general %12, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %17 = stablehlo.reshape %16 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %18 = stablehlo.transpose %17, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %19 = stablehlo.dot_general %12, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %20 = stablehlo.reshape %19 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %22 = stablehlo.iota dim = 0 : tensor<32xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %24 = stablehlo.multiply %23, %22 : tensor<32xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %26 = stablehlo.add %25, %24 : tensor<32xf32>
    %cst_4 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %28 = stablehlo.divide %26, %27 : tensor<32xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %30 = stablehlo.power %29, %28 : tensor<32xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %32 = stablehlo.divide %31, %30 : tensor<32xf32>
    %33 = stablehlo.iota dim = 0 : tensor<128xf32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %35 = stablehlo.broadcast_in_dim %32, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %36 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x32xf32>
    %37 = stablehlo.broadcast_in_dim %35, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<128x32xf32>
    %38 = stablehlo.multiply %36, %37 : tensor<128x32xf32>
    %39 = stablehlo.sine %38 : tensor<128x32xf32>
    %40 = stablehlo.cosine %38 : tensor<128x32xf32>
    %41 = stablehlo.slice %15 [0:4, 0:128, 0:32] : (tensor<4x128x64xf32>) -> tensor<4x128x32xf32>
    %42 = stablehlo.slice %15 [0:4, 0:128, 32:64] : (tensor<4x128x64xf32>) -> tensor<4x128x32xf32>
    %43 = stablehlo.broadcast_in_dim %40, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %45 = stablehlo.multiply %41, %44 : tensor<4x128x32xf32>
    %46 = stablehlo.broadcast_in_dim %39, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %48 = stablehlo.multiply %42, %47 : tensor<4x128x32xf32>
    %49 = stablehlo.subtract %45, %48 : tensor<4x128x32xf32>
    %50 = stablehlo.broadcast_in_dim %39, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %52 = stablehlo.multiply %41, %51 : tensor<4x128x32xf32>
    %53 = stablehlo.broadcast_in_dim %40, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %55 = stablehlo.multiply %42, %54 : tensor<4x128x32xf32>
    %56 = stablehlo.add %52, %55 : tensor<4x128x32xf32>
    %57 = stablehlo.concatenate %49, %56, dim = 2 : (tensor<4x128x32xf32>, tensor<4x128x32xf32>) -> tensor<4x128x64xf32>
    %58 = stablehlo.iota dim = 0 : tensor<32xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %60 = stablehlo.multiply %59, %58 : tensor<32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %62 = stablehlo.add %61, %60 : tensor<32xf32>
    %cst_9 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %64 = stablehlo.divide %62, %63 : tensor<32xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %66 = stablehlo.power %65, %64 : tensor<32xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %68 = stablehlo.divide %67, %66 : tensor<32xf32>
    %69 = stablehlo.iota dim = 0 : tensor<128xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %71 = stablehlo.broadcast_in_dim %68, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %72 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x32xf32>
    %73 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<128x32xf32>
    %74 = stablehlo.multiply %72, %73 : tensor<128x32xf32>
    %75 = stablehlo.sine %74 : tensor<128x32xf32>
    %76 = stablehlo.cosine %74 : tensor<128x32xf32>
    %77 = stablehlo.slice %18 [0:4, 0:128, 0:32] : (tensor<4x128x64xf32>) -> tensor<4x128x32xf32>
    %78 = stablehlo.slice %18 [0:4, 0:128, 32:64] : (tensor<4x128x64xf32>) -> tensor<4x128x32xf32>
    %79 = stablehlo.broadcast_in_dim %76, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %81 = stablehlo.multiply %77, %80 : tensor<4x128x32xf32>
    %82 = stablehlo.broadcast_in_dim %75, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %84 = stablehlo.multiply %78, %83 : tensor<4x128x32xf32>
    %85 = stablehlo.subtract %81, %84 : tensor<4x128x32xf32>
    %86 = stablehlo.broadcast_in_dim %75, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %88 = stablehlo.multiply %77, %87 : tensor<4x128x32xf32>
    %89 = stablehlo.broadcast_in_dim %76, dims = [1, 2] : (tensor<128x32xf32>) -> tensor<1x128x32xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0, 1, 2] : (tensor<1x128x32xf32>) -> tensor<4x128x32xf32>
    %91 = stablehlo.multiply %78, %90 : tensor<4x128x32xf32>
    %92 = stablehlo.add %88, %91 : tensor<4x128x32xf32>
    %93 = stablehlo.concatenate %85, %92, dim = 2 : (tensor<4x128x32xf32>, tensor<4x128x32xf32>) -> tensor<4x128x64xf32>
    %94 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %95 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %96 = stablehlo.compare LE, %95, %94, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %97 = stablehlo.broadcast_in_dim %96, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<1x128x128xi1>
    %cst_12 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %98 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x128x64xf32>
    %99 = stablehlo.divide %57, %98 : tensor<4x128x64xf32>
    %100 = stablehlo.dot_general %99, %93, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x128x64xf32>, tensor<4x128x64xf32>) -> tensor<4x128x128xf32>
    %cst_13 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %101 = call @_where(%97, %100, %cst_13) : (tensor<1x128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %cst_14 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %102 = stablehlo.reduce(%101 init: %cst_14) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %cst_15 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %104 = stablehlo.maximum %103, %102 : tensor<4x128xf32>
    %105 = stablehlo.broadcast_in_dim %104, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %107 = stablehlo.subtract %101, %106 : tensor<4x128x128xf32>
    %108 = stablehlo.exponential %107 : tensor<4x128x128xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %109 = stablehlo.reduce(%108 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %112 = stablehlo.divide %108, %111 : tensor<4x128x128xf32>
    %113 = stablehlo.dot_general %112, %21, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %114 = stablehlo.transpose %113, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %115 = stablehlo.reshape %114 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %116 = stablehlo.dot_general %115, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %117 = stablehlo.add %arg0, %116 : tensor<128x256xf32>
    %118 = chlo.square %117 : tensor<128x256xf32> -> tensor<128x256xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_17) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_18 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %122 = stablehlo.divide %120, %121 : tensor<128x1xf32>
    %cst_19 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %124 = stablehlo.add %122, %123 : tensor<128x1xf32>
    %125 = stablehlo.rsqrt %124 : tensor<128x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %127 = stablehlo.multiply %117, %126 : tensor<128x256xf32>
    %128 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %130 = stablehlo.multiply %127, %129 : tensor<128x256xf32>
    %131 = stablehlo.dot_general %130, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x688xf32>) -> tensor<128x688xf32>
    %132 = call @silu(%131) : (tensor<128x688xf32>) -> tensor<128x688xf32>
    %133 = stablehlo.dot_general %130, %arg8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x688xf32>) -> tensor<128x688xf32>
    %134 = stablehlo.multiply %132, %133 : tensor<128x688xf32>
    %135 = stablehlo.dot_general %134, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x688xf32>, tensor<688x256xf32>) -> tensor<128x256xf32>
    %136 = stablehlo.add %117, %135 : tensor<128x256xf32>
    return %136 : tensor<128x256xf32>
  }
  func.func private @_where(%arg0: tensor<1x128x128xi1>, %arg1: tensor<4x128x128xf32>, %arg2: tensor<f32>) -> tensor<4x128x128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x128x128xi1>) -> tensor<4x128x128xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<4x128x128xi1>, tensor<4x128x128xf32>
    return %2 : tensor<4x128x128xf32>
  }
  func.func private @silu(%arg0: tensor<128x688xf32>) -> tensor<128x688xf32> {
    %0 = stablehlo.negate %arg0 : tensor<128x688xf32>
    %1 = stablehlo.exponential %0 : tensor<128x688xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x688xf32>
    %3 = stablehlo.add %2, %1 : tensor<128x688xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x688xf32>
    %5 = stablehlo.divide %4, %3 : tensor<128x688xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<128x688xf32>
    return %6 : tensor<128x688xf32>
  }
}
