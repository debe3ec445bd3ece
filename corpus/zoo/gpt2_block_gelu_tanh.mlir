module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<128x256xf32>, %arg1: tensor<256x1024xf32>, %arg2: tensor<1024xf32>, %arg3: tensor<256xf32>, %arg4: tensor<256xf32>, %arg5: tensor<256xf32>, %arg6: tensor<256xf32>, %arg7: tensor<1024x256xf32>, %arg8: tensor<256xf32>, %arg9: tensor<256x256xf32>, %arg10: tensor<256xf32>, %arg11: tensor<256x768xf32>, %arg12: tensor<768xf32>) -> (tensor<128x256xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<128x1xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = call @_var(%arg0, %c) : (tensor<128x256xf32>, tensor<i32>) -> tensor<128x1xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %6 = stablehlo.subtract %arg0, %5 : tensor<128x256xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %8 = stablehlo.add %4, %7 : tensor<128x1xf32>
    %9 = stablehlo.sqrt %8 : tensor<128x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %11 = stablehlo.divide %6, %10 : tensor<128x256xf32>
    %12 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %14 = stablehlo.multiply %11, %13 : tensor<128x256xf32>
    %15 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %17 = stablehlo.add %14, %16 : tensor<128x256xf32>
    %18 = stablehlo.dot_general %17, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x768xf32>) -> tensor<128x768xf32>
    %19 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<128x768xf32>
    %21 = stablehlo.add %18, %20 : tensor<128x768xf32>
    %22 = stablehlo.slice %21 [0:128, 0:256] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %23 = stablehlo.slice %21 [0:128, 256:512] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %24 = stablehlo.slice %21 [0:128, 512:768] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %25 = stablehlo.reshape %22 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %27 = stablehlo.reshape %23 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %29 = stablehlo.reshape %24 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %31 = stablehlo.iota dim = 0 : tensor<128xi32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [1] : (tensor<128xi32>) -> tensor<1x128xi32>
    %33 = stablehlo.iota dim = 0 : tensor<128xi32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %35 = stablehlo.broadcast_in_dim %32, dims = [0, 1] : (tensor<1x128xi32>) -> tensor<128x128xi32>
    %36 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<128x1xi32>) -> tensor<128x128xi32>
    %37 = stablehlo.compare LE, %35, %36, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %38 = stablehlo.broadcast_in_dim %37, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<1x128x128xi1>
    %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x128x64xf32>
    %40 = stablehlo.divide %26, %39 : tensor<4x128x64xf32>
    %41 = stablehlo.dot_general %40, %28, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<4x128x64xf32>, tensor<4x128x64xf32>) -> tensor<4x128x128xf32>
    %cst_3 = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>
    %42 = call @_where_0(%38, %41, %cst_3) : (tensor<1x128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_4) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %45 = stablehlo.maximum %44, %43 : tensor<4x128xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %48 = stablehlo.subtract %42, %47 : tensor<4x128x128xf32>
    %49 = stablehlo.exponential %48 : tensor<4x128x128xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.reduce(%49 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %53 = stablehlo.divide %49, %52 : tensor<4x128x128xf32>
    %54 = stablehlo.dot_general %53, %30, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %55 = stablehlo.transpose %54, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %56 = stablehlo.reshape %55 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %57 = stablehlo.dot_general %56, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %58 = stablehlo.add %arg0, %57 : tensor<128x256xf32>
    %59 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %61 = stablehlo.add %58, %60 : tensor<128x256xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_7) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_8 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<128x1xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %66 = call @_var(%61, %c_9) : (tensor<128x256xf32>, tensor<i32>) -> tensor<128x1xf32>
    %67 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %68 = stablehlo.subtract %61, %67 : tensor<128x256xf32>
    %cst_10 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %70 = stablehlo.add %66, %69 : tensor<128x1xf32>
    %71 = stablehlo.sqrt %70 : tensor<128x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %73 = stablehlo.divide %68, %72 : tensor<128x256xf32>
    %74 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %76 = stablehlo.multiply %73, %75 : tensor<128x256xf32>
    %77 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %79 = stablehlo.add %76, %78 : tensor<128x256xf32>
    %80 = stablehlo.dot_general %79, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x256xf32>, tensor<256x1024xf32>) -> tensor<128x1024xf32>
    %81 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<1024xf32>) -> tensor<1x1024xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<1x1024xf32>) -> tensor<128x1024xf32>
    %83 = stablehlo.add %80, %82 : tensor<128x1024xf32>
    %84 = stablehlo.multiply %83, %83 : tensor<128x1024xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<128x1024xf32>
    %cst_11 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<128x1024xf32>
    %88 = stablehlo.add %83, %87 : tensor<128x1024xf32>
    %cst_12 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<128x1024xf32>
    %91 = stablehlo.tanh %90 : tensor<128x1024xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %93 = stablehlo.add %92, %91 : tensor<128x1024xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<128x1024xf32>
    %96 = stablehlo.multiply %83, %95 : tensor<128x1024xf32>
    %97 = stablehlo.dot_general %96, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<128x1024xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
    %98 = stablehlo.add %61, %97 : tensor<128x256xf32>
    %99 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %101 = stablehlo.add %98, %100 : tensor<128x256xf32>
    return %101 : tensor<128x256xf32>
  }
  func.func private @_var(%arg0: tensor<128x256xf32>, %arg1: tensor<i32>) -> tensor<128x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %cst_0 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<128x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<128x256xf32>
    %6 = chlo.square %5 : tensor<128x256xf32> -> tensor<128x256xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<128x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where(%13, %12, %cst_4) : (tensor<i1>, tensor<128x1xf32>, tensor<f32>) -> tensor<128x1xf32>
    return %14 : tensor<128x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<128x1xf32>, %arg2: tensor<f32>) -> tensor<128x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<128x1xf32>
    return %2 : tensor<128x1xf32>
  }
  func.func private @_where_0(%arg0: tensor<1x128x128xi1>, %arg1: tensor<4x128x128xf32>, %arg2: tensor<f32>) -> tensor<4x128x128xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x128x128xi1>) -> tensor<4x128x128xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<4x128x128xi1>, tensor<4x128x128xf32>
    return %2 : tensor<4x128x128xf32>
  }
}
