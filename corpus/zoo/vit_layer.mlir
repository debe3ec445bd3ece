module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<197x192xf32>, %arg1: tensor<192x768xf32>, %arg2: tensor<768xf32>, %arg3: tensor<192xf32>, %arg4: tensor<192xf32>, %arg5: tensor<192xf32>, %arg6: tensor<192xf32>, %arg7: tensor<768x192xf32>, %arg8: tensor<192xf32>, %arg9: tensor<192x192xf32>, %arg10: tensor<192xf32>, %arg11: tensor<192x576xf32>, %arg12: tensor<576xf32>) -> (tensor<197x192xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<197x192xf32>, tensor<f32>) -> tensor<197xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<197xf32>) -> tensor<197x1xf32>
    %cst_0 = stablehlo.constant dense<1.920000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<197x1xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = call @_var(%arg0, %c) : (tensor<197x192xf32>, tensor<i32>) -> tensor<197x1xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<197x1xf32>) -> tensor<197x192xf32>
    %6 = stablehlo.subtract %arg0, %5 : tensor<197x192xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %8 = stablehlo.add %4, %7 : tensor<197x1xf32>
    %9 = stablehlo.sqrt %8 : tensor<197x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<197x1xf32>) -> tensor<197x192xf32>
    %11 = stablehlo.divide %6, %10 : tensor<197x192xf32>
    %12 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %14 = stablehlo.multiply %11, %13 : tensor<197x192xf32>
    %15 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %17 = stablehlo.add %14, %16 : tensor<197x192xf32>
    %18 = stablehlo.dot_general %17, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<197x192xf32>, tensor<192x576xf32>) -> tensor<197x576xf32>
    %19 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<576xf32>) -> tensor<1x576xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x576xf32>) -> tensor<197x576xf32>
    %21 = stablehlo.add %18, %20 : tensor<197x576xf32>
    %22 = stablehlo.slice %21 [0:197, 0:192] : (tensor<197x576xf32>) -> tensor<197x192xf32>
    %23 = stablehlo.slice %21 [0:197, 192:384] : (tensor<197x576xf32>) -> tensor<197x192xf32>
    %24 = stablehlo.slice %21 [0:197, 384:576] : (tensor<197x576xf32>) -> tensor<197x192xf32>
    %25 = stablehlo.reshape %22 : (tensor<197x192xf32>) -> tensor<197x3x64xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0, 2] : (tensor<197x3x64xf32>) -> tensor<3x197x64xf32>
    %27 = stablehlo.reshape %23 : (tensor<197x192xf32>) -> tensor<197x3x64xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0, 2] : (tensor<197x3x64xf32>) -> tensor<3x197x64xf32>
    %29 = stablehlo.reshape %24 : (tensor<197x192xf32>) -> tensor<197x3x64xf32>
    %30 = stablehlo.transpose %29, dims = [1, 0, 2] : (tensor<197x3x64xf32>) -> tensor<3x197x64xf32>
    %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x197x64xf32>
    %32 = stablehlo.divide %26, %31 : tensor<3x197x64xf32>
    %33 = stablehlo.dot_general %32, %28, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<3x197x64xf32>, tensor<3x197x64xf32>) -> tensor<3x197x197xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<3x197x197xf32>, tensor<f32>) -> tensor<3x197xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x197xf32>
    %36 = stablehlo.maximum %35, %34 : tensor<3x197xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<3x197xf32>) -> tensor<3x197x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<3x197x1xf32>) -> tensor<3x197x197xf32>
    %39 = stablehlo.subtract %33, %38 : tensor<3x197x197xf32>
    %40 = stablehlo.exponential %39 : tensor<3x197x197xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_5) applies stablehlo.add across dimensions = [2] : (tensor<3x197x197xf32>, tensor<f32>) -> tensor<3x197xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<3x197xf32>) -> tensor<3x197x1xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<3x197x1xf32>) -> tensor<3x197x197xf32>
    %44 = stablehlo.divide %40, %43 : tensor<3x197x197xf32>
    %45 = stablehlo.dot_general %44, %30, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x197x197xf32>, tensor<3x197x64xf32>) -> tensor<3x197x64xf32>
    %46 = stablehlo.transpose %45, dims = [1, 0, 2] : (tensor<3x197x64xf32>) -> tensor<197x3x64xf32>
    %47 = stablehlo.reshape %46 : (tensor<197x3x64xf32>) -> tensor<197x192xf32>
    %48 = stablehlo.dot_general %47, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<197x192xf32>, tensor<192x192xf32>) -> tensor<197x192xf32>
    %49 = stablehlo.add %arg0, %48 : tensor<197x192xf32>
    %50 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %52 = stablehlo.add %49, %51 : tensor<197x192xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %53 = stablehlo.reduce(%52 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<197x192xf32>, tensor<f32>) -> tensor<197xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0] : (tensor<197xf32>) -> tensor<197x1xf32>
    %cst_7 = stablehlo.constant dense<1.920000e+02> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %56 = stablehlo.divide %54, %55 : tensor<197x1xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %57 = call @_var(%52, %c_8) : (tensor<197x192xf32>, tensor<i32>) -> tensor<197x1xf32>
    %58 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<197x1xf32>) -> tensor<197x192xf32>
    %59 = stablehlo.subtract %52, %58 : tensor<197x192xf32>
    %cst_9 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %61 = stablehlo.add %57, %60 : tensor<197x1xf32>
    %62 = stablehlo.sqrt %61 : tensor<197x1xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<197x1xf32>) -> tensor<197x192xf32>
    %64 = stablehlo.divide %59, %63 : tensor<197x192xf32>
    %65 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %67 = stablehlo.multiply %64, %66 : tensor<197x192xf32>
    %68 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %70 = stablehlo.add %67, %69 : tensor<197x192xf32>
    %71 = stablehlo.dot_general %70, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<197x192xf32>, tensor<192x768xf32>) -> tensor<197x768xf32>
    %72 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<197x768xf32>
    %74 = stablehlo.add %71, %73 : tensor<197x768xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<197x768xf32>
    %76 = stablehlo.multiply %75, %74 : tensor<197x768xf32>
    %77 = stablehlo.negate %74 : tensor<197x768xf32>
    %cst_11 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<197x768xf32>
    %79 = stablehlo.multiply %77, %78 : tensor<197x768xf32>
    %80 = chlo.erfc %79 : tensor<197x768xf32> -> tensor<197x768xf32>
    %81 = stablehlo.multiply %76, %80 : tensor<197x768xf32>
    %82 = stablehlo.dot_general %81, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<197x768xf32>, tensor<768x192xf32>) -> tensor<197x192xf32>
    %83 = stablehlo.add %52, %82 : tensor<197x192xf32>
    %84 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<192xf32>) -> tensor<1x192xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<1x192xf32>) -> tensor<197x192xf32>
    %86 = stablehlo.add %83, %85 : tensor<197x192xf32>
    return %86 : tensor<197x192xf32>
  }
  func.func private @_var(%arg0: tensor<197x192xf32>, %arg1: tensor<i32>) -> tensor<197x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<197x192xf32>, tensor<f32>) -> tensor<197xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<197xf32>) -> tensor<197x1xf32>
    %cst_0 = stablehlo.constant dense<1.920000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<197x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<197x1xf32>) -> tensor<197x192xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<197x192xf32>
    %6 = chlo.square %5 : tensor<197x192xf32> -> tensor<197x192xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.920000e+02> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<197x192xf32>, tensor<f32>) -> tensor<197xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<197xf32>) -> tensor<197x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<197x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where(%13, %12, %cst_4) : (tensor<i1>, tensor<197x1xf32>, tensor<f32>) -> tensor<197x1xf32>
    return %14 : tensor<197x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<197x1xf32>, %arg2: tensor<f32>) -> tensor<197x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<197x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<197x1xf32>
    return %2 : tensor<197x1xf32>
  }
}
