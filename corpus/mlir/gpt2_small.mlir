module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi32>, %arg1: tensor<1024x768xf32>, %arg2: tensor<64x768xf32>, %arg3: tensor<3072xf32>, %arg4: tensor<768xf32>, %arg5: tensor<768xf32>, %arg6: tensor<2304xf32>, %arg7: tensor<768xf32>, %arg8: tensor<768xf32>, %arg9: tensor<768xf32>, %arg10: tensor<768xf32>, %arg11: tensor<768x3072xf32>, %arg12: tensor<768x768xf32>, %arg13: tensor<3072x768xf32>, %arg14: tensor<768x2304xf32>, %arg15: tensor<3072xf32>, %arg16: tensor<768xf32>, %arg17: tensor<768xf32>, %arg18: tensor<2304xf32>, %arg19: tensor<768xf32>, %arg20: tensor<768xf32>, %arg21: tensor<768xf32>, %arg22: tensor<768xf32>, %arg23: tensor<768x3072xf32>, %arg24: tensor<768x768xf32>, %arg25: tensor<3072x768xf32>, %arg26: tensor<768x2304xf32>, %arg27: tensor<3072xf32>, %arg28: tensor<768xf32>, %arg29: tensor<768xf32>, %arg30: tensor<2304xf32>, %arg31: tensor<768xf32>, %arg32: tensor<768xf32>, %arg33: tensor<768xf32>, %arg34: tensor<768xf32>, %arg35: tensor<768x3072xf32>, %arg36: tensor<768x768xf32>, %arg37: tensor<3072x768xf32>, %arg38: tensor<768x2304xf32>, %arg39: tensor<3072xf32>, %arg40: tensor<768xf32>, %arg41: tensor<768xf32>, %arg42: tensor<2304xf32>, %arg43: tensor<768xf32>, %arg44: tensor<768xf32>, %arg45: tensor<768xf32>, %arg46: tensor<768xf32>, %arg47: tensor<768x3072xf32>, %arg48: tensor<768x768xf32>, %arg49: tensor<3072x768xf32>, %arg50: tensor<768x2304xf32>, %arg51: tensor<3072xf32>, %arg52: tensor<768xf32>, %arg53: tensor<768xf32>, %arg54: tensor<2304xf32>, %arg55: tensor<768xf32>, %arg56: tensor<768xf32>, %arg57: tensor<768xf32>, %arg58: tensor<768xf32>, %arg59: tensor<768x3072xf32>, %arg60: tensor<768x768xf32>, %arg61: tensor<3072x768xf32>, %arg62: tensor<768x2304xf32>, %arg63: tensor<3072xf32>, %arg64: tensor<768xf32>, %arg65: tensor<768xf32>, %arg66: tensor<2304xf32>, %arg67: tensor<768xf32>, %arg68: tensor<768xf32>, %arg69: tensor<768xf32>, %arg70: tensor<768xf32>, %arg71: tensor<768x3072xf32>, %arg72: tensor<768x768xf32>, %arg73: tensor<3072x768xf32>, %arg74: tensor<768x2304xf32>, %arg75: tensor<3072xf32>, %arg76: tensor<768xf32>, %arg77: tensor<768xf32>, %arg78: tensor<2304xf32>, %arg79: tensor<768xf32>, %arg80: tensor<768xf32>, %arg81: tensor<768xf32>, %arg82: tensor<768xf32>, %arg83: tensor<768x3072xf32>, %arg84: tensor<768x768xf32>, %arg85: tensor<3072x768xf32>, %arg86: tensor<768x2304xf32>, %arg87: tensor<3072xf32>, %arg88: tensor<768xf32>, %arg89: tensor<768xf32>, %arg90: tensor<2304xf32>, %arg91: tensor<768xf32>, %arg92: tensor<768xf32>, %arg93: tensor<768xf32>, %arg94: tensor<768xf32>, %arg95: tensor<768x3072xf32>, %arg96: tensor<768x768xf32>, %arg97: tensor<3072x768xf32>, %arg98: tensor<768x2304xf32>, %arg99: tensor<3072xf32>, %arg100: tensor<768xf32>, %arg101: tensor<768xf32>, %arg102: tensor<2304xf32>, %arg103: tensor<768xf32>, %arg104: tensor<768xf32>, %arg105: tensor<768xf32>, %arg106: tensor<768xf32>, %arg107: tensor<768x3072xf32>, %arg108: tensor<768x768xf32>, %arg109: tensor<3072x768xf32>, %arg110: tensor<768x2304xf32>, %arg111: tensor<3072xf32>, %arg112: tensor<768xf32>, %arg113: tensor<768xf32>, %arg114: tensor<2304xf32>, %arg115: tensor<768xf32>, %arg116: tensor<768xf32>, %arg117: tensor<768xf32>, %arg118: tensor<768xf32>, %arg119: tensor<768x3072xf32>, %arg120: tensor<768x768xf32>, %arg121: tensor<3072x768xf32>, %arg122: tensor<768x2304xf32>, %arg123: tensor<3072xf32>, %arg124: tensor<768xf32>, %arg125: tensor<768xf32>, %arg126: tensor<2304xf32>, %arg127: tensor<768xf32>, %arg128: tensor<768xf32>, %arg129: tensor<768xf32>, %arg130: tensor<768xf32>, %arg131: tensor<768x3072xf32>, %arg132: tensor<768x768xf32>, %arg133: tensor<3072x768xf32>, %arg134: tensor<768x2304xf32>, %arg135: tensor<3072xf32>, %arg136: tensor<768xf32>, %arg137: tensor<768xf32>, %arg138: tensor<2304xf32>, %arg139: tensor<768xf32>, %arg140: tensor<768xf32>, %arg141: tensor<768xf32>, %arg142: tensor<768xf32>, %arg143: tensor<768x3072xf32>, %arg144: tensor<768x768xf32>, %arg145: tensor<3072x768xf32>, %arg146: tensor<768x2304xf32>, %arg147: tensor<768xf32>, %arg148: tensor<768xf32>) -> (tensor<16x1024xf32> {jax.result_info = "result"}) {
    %0 = call @_take(%arg1, %arg0) : (tensor<1024x768xf32>, tensor<16xi32>) -> tensor<16x768xf32>
    %1 = stablehlo.slice %arg2 [0:16, 0:768] : (tensor<64x768xf32>) -> tensor<16x768xf32>
    %2 = stablehlo.add %0, %1 : tensor<16x768xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_0 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %6 = stablehlo.divide %4, %5 : tensor<16x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %8 = stablehlo.subtract %2, %7 : tensor<16x768xf32>
    %9 = stablehlo.multiply %8, %8 : tensor<16x768xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_2 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<16x1xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %15 = stablehlo.add %13, %14 : tensor<16x1xf32>
    %16 = stablehlo.rsqrt %15 : tensor<16x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %18 = stablehlo.multiply %8, %17 : tensor<16x768xf32>
    %19 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %21 = stablehlo.multiply %18, %20 : tensor<16x768xf32>
    %22 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %24 = stablehlo.add %21, %23 : tensor<16x768xf32>
    %25 = stablehlo.dot_general %24, %arg14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %26 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %28 = stablehlo.add %25, %27 : tensor<16x2304xf32>
    %29 = stablehlo.slice %28 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %30 = stablehlo.slice %28 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %31 = stablehlo.slice %28 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %32 = stablehlo.reshape %29 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %34 = stablehlo.reshape %30 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %35 = stablehlo.transpose %34, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %36 = stablehlo.reshape %31 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %38 = stablehlo.dot_general %33, %35, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_4 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %39 = stablehlo.sqrt %cst_4 : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %41 = stablehlo.divide %38, %40 : tensor<12x16x16xf32>
    %42 = stablehlo.iota dim = 0 : tensor<16xi32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %44 = stablehlo.iota dim = 0 : tensor<16xi32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %46 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %47 = stablehlo.broadcast_in_dim %45, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %48 = stablehlo.compare LE, %46, %47, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %49 = stablehlo.broadcast_in_dim %48, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %50 = call @_where_0(%49, %41, %cst_5) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %54 = stablehlo.subtract %50, %53 : tensor<12x16x16xf32>
    %55 = stablehlo.exponential %54 : tensor<12x16x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_7) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %59 = stablehlo.divide %55, %58 : tensor<12x16x16xf32>
    %60 = stablehlo.dot_general %59, %37, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %62 = stablehlo.reshape %61 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %63 = stablehlo.dot_general %62, %arg12, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %64 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %66 = stablehlo.add %63, %65 : tensor<16x768xf32>
    %67 = stablehlo.add %2, %66 : tensor<16x768xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.reduce(%67 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_9 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %71 = stablehlo.divide %69, %70 : tensor<16x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %73 = stablehlo.subtract %67, %72 : tensor<16x768xf32>
    %74 = stablehlo.multiply %73, %73 : tensor<16x768xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_10) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_11 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %78 = stablehlo.divide %76, %77 : tensor<16x1xf32>
    %cst_12 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %80 = stablehlo.add %78, %79 : tensor<16x1xf32>
    %81 = stablehlo.rsqrt %80 : tensor<16x1xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %83 = stablehlo.multiply %73, %82 : tensor<16x768xf32>
    %84 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %86 = stablehlo.multiply %83, %85 : tensor<16x768xf32>
    %87 = stablehlo.broadcast_in_dim %arg9, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %89 = stablehlo.add %86, %88 : tensor<16x768xf32>
    %90 = stablehlo.dot_general %89, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %91 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %93 = stablehlo.add %90, %92 : tensor<16x3072xf32>
    %cst_13 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<16x3072xf32>
    %cst_14 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %97 = stablehlo.multiply %96, %93 : tensor<16x3072xf32>
    %98 = stablehlo.multiply %97, %93 : tensor<16x3072xf32>
    %99 = stablehlo.multiply %98, %93 : tensor<16x3072xf32>
    %100 = stablehlo.add %93, %99 : tensor<16x3072xf32>
    %cst_15 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<16x3072xf32>
    %103 = stablehlo.tanh %102 : tensor<16x3072xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %105 = stablehlo.add %104, %103 : tensor<16x3072xf32>
    %106 = stablehlo.multiply %95, %105 : tensor<16x3072xf32>
    %107 = stablehlo.dot_general %106, %arg13, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %108 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %110 = stablehlo.add %107, %109 : tensor<16x768xf32>
    %111 = stablehlo.add %67, %110 : tensor<16x768xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %112 = stablehlo.reduce(%111 init: %cst_17) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %113 = stablehlo.broadcast_in_dim %112, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_18 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %115 = stablehlo.divide %113, %114 : tensor<16x1xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %117 = stablehlo.subtract %111, %116 : tensor<16x768xf32>
    %118 = stablehlo.multiply %117, %117 : tensor<16x768xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%118 init: %cst_19) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_20 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %122 = stablehlo.divide %120, %121 : tensor<16x1xf32>
    %cst_21 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %124 = stablehlo.add %122, %123 : tensor<16x1xf32>
    %125 = stablehlo.rsqrt %124 : tensor<16x1xf32>
    %126 = stablehlo.broadcast_in_dim %125, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %127 = stablehlo.multiply %117, %126 : tensor<16x768xf32>
    %128 = stablehlo.broadcast_in_dim %arg20, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %130 = stablehlo.multiply %127, %129 : tensor<16x768xf32>
    %131 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %133 = stablehlo.add %130, %132 : tensor<16x768xf32>
    %134 = stablehlo.dot_general %133, %arg26, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %135 = stablehlo.broadcast_in_dim %arg18, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %137 = stablehlo.add %134, %136 : tensor<16x2304xf32>
    %138 = stablehlo.slice %137 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %139 = stablehlo.slice %137 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %140 = stablehlo.slice %137 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %141 = stablehlo.reshape %138 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %142 = stablehlo.transpose %141, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %143 = stablehlo.reshape %139 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %144 = stablehlo.transpose %143, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %145 = stablehlo.reshape %140 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %146 = stablehlo.transpose %145, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %147 = stablehlo.dot_general %142, %144, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_22 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %148 = stablehlo.sqrt %cst_22 : tensor<f32>
    %149 = stablehlo.broadcast_in_dim %148, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %150 = stablehlo.divide %147, %149 : tensor<12x16x16xf32>
    %151 = stablehlo.iota dim = 0 : tensor<16xi32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %153 = stablehlo.iota dim = 0 : tensor<16xi32>
    %154 = stablehlo.broadcast_in_dim %153, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %155 = stablehlo.broadcast_in_dim %152, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %156 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %157 = stablehlo.compare LE, %155, %156, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %158 = stablehlo.broadcast_in_dim %157, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_23 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %159 = call @_where_0(%158, %150, %cst_23) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_24 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %160 = stablehlo.reduce(%159 init: %cst_24) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %163 = stablehlo.subtract %159, %162 : tensor<12x16x16xf32>
    %164 = stablehlo.exponential %163 : tensor<12x16x16xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %165 = stablehlo.reduce(%164 init: %cst_25) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %168 = stablehlo.divide %164, %167 : tensor<12x16x16xf32>
    %169 = stablehlo.dot_general %168, %146, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %170 = stablehlo.transpose %169, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %171 = stablehlo.reshape %170 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %172 = stablehlo.dot_general %171, %arg24, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %173 = stablehlo.broadcast_in_dim %arg16, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %175 = stablehlo.add %172, %174 : tensor<16x768xf32>
    %176 = stablehlo.add %111, %175 : tensor<16x768xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %177 = stablehlo.reduce(%176 init: %cst_26) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_27 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %180 = stablehlo.divide %178, %179 : tensor<16x1xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %182 = stablehlo.subtract %176, %181 : tensor<16x768xf32>
    %183 = stablehlo.multiply %182, %182 : tensor<16x768xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %184 = stablehlo.reduce(%183 init: %cst_28) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %185 = stablehlo.broadcast_in_dim %184, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_29 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %186 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %187 = stablehlo.divide %185, %186 : tensor<16x1xf32>
    %cst_30 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %188 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %189 = stablehlo.add %187, %188 : tensor<16x1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<16x1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %192 = stablehlo.multiply %182, %191 : tensor<16x768xf32>
    %193 = stablehlo.broadcast_in_dim %arg22, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %195 = stablehlo.multiply %192, %194 : tensor<16x768xf32>
    %196 = stablehlo.broadcast_in_dim %arg21, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %198 = stablehlo.add %195, %197 : tensor<16x768xf32>
    %199 = stablehlo.dot_general %198, %arg23, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %200 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %202 = stablehlo.add %199, %201 : tensor<16x3072xf32>
    %cst_31 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %204 = stablehlo.multiply %203, %202 : tensor<16x3072xf32>
    %cst_32 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %205 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %206 = stablehlo.multiply %205, %202 : tensor<16x3072xf32>
    %207 = stablehlo.multiply %206, %202 : tensor<16x3072xf32>
    %208 = stablehlo.multiply %207, %202 : tensor<16x3072xf32>
    %209 = stablehlo.add %202, %208 : tensor<16x3072xf32>
    %cst_33 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %210 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %211 = stablehlo.multiply %210, %209 : tensor<16x3072xf32>
    %212 = stablehlo.tanh %211 : tensor<16x3072xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %214 = stablehlo.add %213, %212 : tensor<16x3072xf32>
    %215 = stablehlo.multiply %204, %214 : tensor<16x3072xf32>
    %216 = stablehlo.dot_general %215, %arg25, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %217 = stablehlo.broadcast_in_dim %arg17, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %219 = stablehlo.add %216, %218 : tensor<16x768xf32>
    %220 = stablehlo.add %176, %219 : tensor<16x768xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %221 = stablehlo.reduce(%220 init: %cst_35) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_36 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %223 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %224 = stablehlo.divide %222, %223 : tensor<16x1xf32>
    %225 = stablehlo.broadcast_in_dim %224, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %226 = stablehlo.subtract %220, %225 : tensor<16x768xf32>
    %227 = stablehlo.multiply %226, %226 : tensor<16x768xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %228 = stablehlo.reduce(%227 init: %cst_37) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %229 = stablehlo.broadcast_in_dim %228, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_38 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %231 = stablehlo.divide %229, %230 : tensor<16x1xf32>
    %cst_39 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %232 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %233 = stablehlo.add %231, %232 : tensor<16x1xf32>
    %234 = stablehlo.rsqrt %233 : tensor<16x1xf32>
    %235 = stablehlo.broadcast_in_dim %234, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %236 = stablehlo.multiply %226, %235 : tensor<16x768xf32>
    %237 = stablehlo.broadcast_in_dim %arg32, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %238 = stablehlo.broadcast_in_dim %237, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %239 = stablehlo.multiply %236, %238 : tensor<16x768xf32>
    %240 = stablehlo.broadcast_in_dim %arg31, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %242 = stablehlo.add %239, %241 : tensor<16x768xf32>
    %243 = stablehlo.dot_general %242, %arg38, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %244 = stablehlo.broadcast_in_dim %arg30, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %245 = stablehlo.broadcast_in_dim %244, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %246 = stablehlo.add %243, %245 : tensor<16x2304xf32>
    %247 = stablehlo.slice %246 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %248 = stablehlo.slice %246 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %249 = stablehlo.slice %246 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %250 = stablehlo.reshape %247 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %251 = stablehlo.transpose %250, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %252 = stablehlo.reshape %248 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %253 = stablehlo.transpose %252, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %254 = stablehlo.reshape %249 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %255 = stablehlo.transpose %254, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %256 = stablehlo.dot_general %251, %253, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_40 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %257 = stablehlo.sqrt %cst_40 : tensor<f32>
    %258 = stablehlo.broadcast_in_dim %257, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %259 = stablehlo.divide %256, %258 : tensor<12x16x16xf32>
    %260 = stablehlo.iota dim = 0 : tensor<16xi32>
    %261 = stablehlo.broadcast_in_dim %260, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %262 = stablehlo.iota dim = 0 : tensor<16xi32>
    %263 = stablehlo.broadcast_in_dim %262, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %264 = stablehlo.broadcast_in_dim %261, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %265 = stablehlo.broadcast_in_dim %263, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %266 = stablehlo.compare LE, %264, %265, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %267 = stablehlo.broadcast_in_dim %266, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_41 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %268 = call @_where_0(%267, %259, %cst_41) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_42 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %269 = stablehlo.reduce(%268 init: %cst_42) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %270 = stablehlo.broadcast_in_dim %269, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %272 = stablehlo.subtract %268, %271 : tensor<12x16x16xf32>
    %273 = stablehlo.exponential %272 : tensor<12x16x16xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %274 = stablehlo.reduce(%273 init: %cst_43) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %275 = stablehlo.broadcast_in_dim %274, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %276 = stablehlo.broadcast_in_dim %275, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %277 = stablehlo.divide %273, %276 : tensor<12x16x16xf32>
    %278 = stablehlo.dot_general %277, %255, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %279 = stablehlo.transpose %278, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %280 = stablehlo.reshape %279 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %281 = stablehlo.dot_general %280, %arg36, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %282 = stablehlo.broadcast_in_dim %arg28, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %283 = stablehlo.broadcast_in_dim %282, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %284 = stablehlo.add %281, %283 : tensor<16x768xf32>
    %285 = stablehlo.add %220, %284 : tensor<16x768xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %286 = stablehlo.reduce(%285 init: %cst_44) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %287 = stablehlo.broadcast_in_dim %286, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_45 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %288 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %289 = stablehlo.divide %287, %288 : tensor<16x1xf32>
    %290 = stablehlo.broadcast_in_dim %289, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %291 = stablehlo.subtract %285, %290 : tensor<16x768xf32>
    %292 = stablehlo.multiply %291, %291 : tensor<16x768xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %293 = stablehlo.reduce(%292 init: %cst_46) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %294 = stablehlo.broadcast_in_dim %293, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_47 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %295 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %296 = stablehlo.divide %294, %295 : tensor<16x1xf32>
    %cst_48 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %297 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %298 = stablehlo.add %296, %297 : tensor<16x1xf32>
    %299 = stablehlo.rsqrt %298 : tensor<16x1xf32>
    %300 = stablehlo.broadcast_in_dim %299, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %301 = stablehlo.multiply %291, %300 : tensor<16x768xf32>
    %302 = stablehlo.broadcast_in_dim %arg34, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %303 = stablehlo.broadcast_in_dim %302, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %304 = stablehlo.multiply %301, %303 : tensor<16x768xf32>
    %305 = stablehlo.broadcast_in_dim %arg33, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %306 = stablehlo.broadcast_in_dim %305, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %307 = stablehlo.add %304, %306 : tensor<16x768xf32>
    %308 = stablehlo.dot_general %307, %arg35, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %309 = stablehlo.broadcast_in_dim %arg27, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %310 = stablehlo.broadcast_in_dim %309, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %311 = stablehlo.add %308, %310 : tensor<16x3072xf32>
    %cst_49 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %312 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %313 = stablehlo.multiply %312, %311 : tensor<16x3072xf32>
    %cst_50 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %314 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %315 = stablehlo.multiply %314, %311 : tensor<16x3072xf32>
    %316 = stablehlo.multiply %315, %311 : tensor<16x3072xf32>
    %317 = stablehlo.multiply %316, %311 : tensor<16x3072xf32>
    %318 = stablehlo.add %311, %317 : tensor<16x3072xf32>
    %cst_51 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %319 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %320 = stablehlo.multiply %319, %318 : tensor<16x3072xf32>
    %321 = stablehlo.tanh %320 : tensor<16x3072xf32>
    %cst_52 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %322 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %323 = stablehlo.add %322, %321 : tensor<16x3072xf32>
    %324 = stablehlo.multiply %313, %323 : tensor<16x3072xf32>
    %325 = stablehlo.dot_general %324, %arg37, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %326 = stablehlo.broadcast_in_dim %arg29, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %327 = stablehlo.broadcast_in_dim %326, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %328 = stablehlo.add %325, %327 : tensor<16x768xf32>
    %329 = stablehlo.add %285, %328 : tensor<16x768xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.reduce(%329 init: %cst_53) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %331 = stablehlo.broadcast_in_dim %330, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_54 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %332 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %333 = stablehlo.divide %331, %332 : tensor<16x1xf32>
    %334 = stablehlo.broadcast_in_dim %333, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %335 = stablehlo.subtract %329, %334 : tensor<16x768xf32>
    %336 = stablehlo.multiply %335, %335 : tensor<16x768xf32>
    %cst_55 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %337 = stablehlo.reduce(%336 init: %cst_55) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %338 = stablehlo.broadcast_in_dim %337, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_56 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %339 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %340 = stablehlo.divide %338, %339 : tensor<16x1xf32>
    %cst_57 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %341 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %342 = stablehlo.add %340, %341 : tensor<16x1xf32>
    %343 = stablehlo.rsqrt %342 : tensor<16x1xf32>
    %344 = stablehlo.broadcast_in_dim %343, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %345 = stablehlo.multiply %335, %344 : tensor<16x768xf32>
    %346 = stablehlo.broadcast_in_dim %arg44, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %347 = stablehlo.broadcast_in_dim %346, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %348 = stablehlo.multiply %345, %347 : tensor<16x768xf32>
    %349 = stablehlo.broadcast_in_dim %arg43, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %350 = stablehlo.broadcast_in_dim %349, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %351 = stablehlo.add %348, %350 : tensor<16x768xf32>
    %352 = stablehlo.dot_general %351, %arg50, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %353 = stablehlo.broadcast_in_dim %arg42, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %354 = stablehlo.broadcast_in_dim %353, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %355 = stablehlo.add %352, %354 : tensor<16x2304xf32>
    %356 = stablehlo.slice %355 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %357 = stablehlo.slice %355 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %358 = stablehlo.slice %355 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %359 = stablehlo.reshape %356 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %360 = stablehlo.transpose %359, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %361 = stablehlo.reshape %357 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %362 = stablehlo.transpose %361, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %363 = stablehlo.reshape %358 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %364 = stablehlo.transpose %363, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %365 = stablehlo.dot_general %360, %362, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_58 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %366 = stablehlo.sqrt %cst_58 : tensor<f32>
    %367 = stablehlo.broadcast_in_dim %366, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %368 = stablehlo.divide %365, %367 : tensor<12x16x16xf32>
    %369 = stablehlo.iota dim = 0 : tensor<16xi32>
    %370 = stablehlo.broadcast_in_dim %369, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %371 = stablehlo.iota dim = 0 : tensor<16xi32>
    %372 = stablehlo.broadcast_in_dim %371, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %373 = stablehlo.broadcast_in_dim %370, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %374 = stablehlo.broadcast_in_dim %372, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %375 = stablehlo.compare LE, %373, %374, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %376 = stablehlo.broadcast_in_dim %375, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_59 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %377 = call @_where_0(%376, %368, %cst_59) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_60 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %378 = stablehlo.reduce(%377 init: %cst_60) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %379 = stablehlo.broadcast_in_dim %378, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %380 = stablehlo.broadcast_in_dim %379, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %381 = stablehlo.subtract %377, %380 : tensor<12x16x16xf32>
    %382 = stablehlo.exponential %381 : tensor<12x16x16xf32>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %383 = stablehlo.reduce(%382 init: %cst_61) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %384 = stablehlo.broadcast_in_dim %383, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %385 = stablehlo.broadcast_in_dim %384, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %386 = stablehlo.divide %382, %385 : tensor<12x16x16xf32>
    %387 = stablehlo.dot_general %386, %364, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %388 = stablehlo.transpose %387, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %389 = stablehlo.reshape %388 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %390 = stablehlo.dot_general %389, %arg48, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %391 = stablehlo.broadcast_in_dim %arg40, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %392 = stablehlo.broadcast_in_dim %391, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %393 = stablehlo.add %390, %392 : tensor<16x768xf32>
    %394 = stablehlo.add %329, %393 : tensor<16x768xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %395 = stablehlo.reduce(%394 init: %cst_62) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %396 = stablehlo.broadcast_in_dim %395, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_63 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %397 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %398 = stablehlo.divide %396, %397 : tensor<16x1xf32>
    %399 = stablehlo.broadcast_in_dim %398, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %400 = stablehlo.subtract %394, %399 : tensor<16x768xf32>
    %401 = stablehlo.multiply %400, %400 : tensor<16x768xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %402 = stablehlo.reduce(%401 init: %cst_64) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %403 = stablehlo.broadcast_in_dim %402, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_65 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %404 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %405 = stablehlo.divide %403, %404 : tensor<16x1xf32>
    %cst_66 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %406 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %407 = stablehlo.add %405, %406 : tensor<16x1xf32>
    %408 = stablehlo.rsqrt %407 : tensor<16x1xf32>
    %409 = stablehlo.broadcast_in_dim %408, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %410 = stablehlo.multiply %400, %409 : tensor<16x768xf32>
    %411 = stablehlo.broadcast_in_dim %arg46, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %412 = stablehlo.broadcast_in_dim %411, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %413 = stablehlo.multiply %410, %412 : tensor<16x768xf32>
    %414 = stablehlo.broadcast_in_dim %arg45, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %415 = stablehlo.broadcast_in_dim %414, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %416 = stablehlo.add %413, %415 : tensor<16x768xf32>
    %417 = stablehlo.dot_general %416, %arg47, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %418 = stablehlo.broadcast_in_dim %arg39, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %419 = stablehlo.broadcast_in_dim %418, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %420 = stablehlo.add %417, %419 : tensor<16x3072xf32>
    %cst_67 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %421 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %422 = stablehlo.multiply %421, %420 : tensor<16x3072xf32>
    %cst_68 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %423 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %424 = stablehlo.multiply %423, %420 : tensor<16x3072xf32>
    %425 = stablehlo.multiply %424, %420 : tensor<16x3072xf32>
    %426 = stablehlo.multiply %425, %420 : tensor<16x3072xf32>
    %427 = stablehlo.add %420, %426 : tensor<16x3072xf32>
    %cst_69 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %428 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %429 = stablehlo.multiply %428, %427 : tensor<16x3072xf32>
    %430 = stablehlo.tanh %429 : tensor<16x3072xf32>
    %cst_70 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %431 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %432 = stablehlo.add %431, %430 : tensor<16x3072xf32>
    %433 = stablehlo.multiply %422, %432 : tensor<16x3072xf32>
    %434 = stablehlo.dot_general %433, %arg49, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %435 = stablehlo.broadcast_in_dim %arg41, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %436 = stablehlo.broadcast_in_dim %435, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %437 = stablehlo.add %434, %436 : tensor<16x768xf32>
    %438 = stablehlo.add %394, %437 : tensor<16x768xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %439 = stablehlo.reduce(%438 init: %cst_71) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %440 = stablehlo.broadcast_in_dim %439, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_72 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %441 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %442 = stablehlo.divide %440, %441 : tensor<16x1xf32>
    %443 = stablehlo.broadcast_in_dim %442, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %444 = stablehlo.subtract %438, %443 : tensor<16x768xf32>
    %445 = stablehlo.multiply %444, %444 : tensor<16x768xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %446 = stablehlo.reduce(%445 init: %cst_73) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %447 = stablehlo.broadcast_in_dim %446, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_74 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %448 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %449 = stablehlo.divide %447, %448 : tensor<16x1xf32>
    %cst_75 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %450 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %451 = stablehlo.add %449, %450 : tensor<16x1xf32>
    %452 = stablehlo.rsqrt %451 : tensor<16x1xf32>
    %453 = stablehlo.broadcast_in_dim %452, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %454 = stablehlo.multiply %444, %453 : tensor<16x768xf32>
    %455 = stablehlo.broadcast_in_dim %arg56, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %456 = stablehlo.broadcast_in_dim %455, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %457 = stablehlo.multiply %454, %456 : tensor<16x768xf32>
    %458 = stablehlo.broadcast_in_dim %arg55, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %459 = stablehlo.broadcast_in_dim %458, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %460 = stablehlo.add %457, %459 : tensor<16x768xf32>
    %461 = stablehlo.dot_general %460, %arg62, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %462 = stablehlo.broadcast_in_dim %arg54, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %463 = stablehlo.broadcast_in_dim %462, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %464 = stablehlo.add %461, %463 : tensor<16x2304xf32>
    %465 = stablehlo.slice %464 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %466 = stablehlo.slice %464 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %467 = stablehlo.slice %464 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %468 = stablehlo.reshape %465 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %469 = stablehlo.transpose %468, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %470 = stablehlo.reshape %466 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %471 = stablehlo.transpose %470, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %472 = stablehlo.reshape %467 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %473 = stablehlo.transpose %472, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %474 = stablehlo.dot_general %469, %471, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_76 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %475 = stablehlo.sqrt %cst_76 : tensor<f32>
    %476 = stablehlo.broadcast_in_dim %475, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %477 = stablehlo.divide %474, %476 : tensor<12x16x16xf32>
    %478 = stablehlo.iota dim = 0 : tensor<16xi32>
    %479 = stablehlo.broadcast_in_dim %478, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %480 = stablehlo.iota dim = 0 : tensor<16xi32>
    %481 = stablehlo.broadcast_in_dim %480, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %482 = stablehlo.broadcast_in_dim %479, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %483 = stablehlo.broadcast_in_dim %481, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %484 = stablehlo.compare LE, %482, %483, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %485 = stablehlo.broadcast_in_dim %484, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_77 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %486 = call @_where_0(%485, %477, %cst_77) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_78 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %487 = stablehlo.reduce(%486 init: %cst_78) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %488 = stablehlo.broadcast_in_dim %487, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %489 = stablehlo.broadcast_in_dim %488, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %490 = stablehlo.subtract %486, %489 : tensor<12x16x16xf32>
    %491 = stablehlo.exponential %490 : tensor<12x16x16xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %492 = stablehlo.reduce(%491 init: %cst_79) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %493 = stablehlo.broadcast_in_dim %492, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %494 = stablehlo.broadcast_in_dim %493, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %495 = stablehlo.divide %491, %494 : tensor<12x16x16xf32>
    %496 = stablehlo.dot_general %495, %473, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %497 = stablehlo.transpose %496, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %498 = stablehlo.reshape %497 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %499 = stablehlo.dot_general %498, %arg60, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %500 = stablehlo.broadcast_in_dim %arg52, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %501 = stablehlo.broadcast_in_dim %500, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %502 = stablehlo.add %499, %501 : tensor<16x768xf32>
    %503 = stablehlo.add %438, %502 : tensor<16x768xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %504 = stablehlo.reduce(%503 init: %cst_80) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %505 = stablehlo.broadcast_in_dim %504, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_81 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %506 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %507 = stablehlo.divide %505, %506 : tensor<16x1xf32>
    %508 = stablehlo.broadcast_in_dim %507, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %509 = stablehlo.subtract %503, %508 : tensor<16x768xf32>
    %510 = stablehlo.multiply %509, %509 : tensor<16x768xf32>
    %cst_82 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %511 = stablehlo.reduce(%510 init: %cst_82) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %512 = stablehlo.broadcast_in_dim %511, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_83 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %513 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %514 = stablehlo.divide %512, %513 : tensor<16x1xf32>
    %cst_84 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %515 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %516 = stablehlo.add %514, %515 : tensor<16x1xf32>
    %517 = stablehlo.rsqrt %516 : tensor<16x1xf32>
    %518 = stablehlo.broadcast_in_dim %517, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %519 = stablehlo.multiply %509, %518 : tensor<16x768xf32>
    %520 = stablehlo.broadcast_in_dim %arg58, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %521 = stablehlo.broadcast_in_dim %520, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %522 = stablehlo.multiply %519, %521 : tensor<16x768xf32>
    %523 = stablehlo.broadcast_in_dim %arg57, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %524 = stablehlo.broadcast_in_dim %523, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %525 = stablehlo.add %522, %524 : tensor<16x768xf32>
    %526 = stablehlo.dot_general %525, %arg59, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %527 = stablehlo.broadcast_in_dim %arg51, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %528 = stablehlo.broadcast_in_dim %527, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %529 = stablehlo.add %526, %528 : tensor<16x3072xf32>
    %cst_85 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %530 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %531 = stablehlo.multiply %530, %529 : tensor<16x3072xf32>
    %cst_86 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %532 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %533 = stablehlo.multiply %532, %529 : tensor<16x3072xf32>
    %534 = stablehlo.multiply %533, %529 : tensor<16x3072xf32>
    %535 = stablehlo.multiply %534, %529 : tensor<16x3072xf32>
    %536 = stablehlo.add %529, %535 : tensor<16x3072xf32>
    %cst_87 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %537 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %538 = stablehlo.multiply %537, %536 : tensor<16x3072xf32>
    %539 = stablehlo.tanh %538 : tensor<16x3072xf32>
    %cst_88 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %540 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %541 = stablehlo.add %540, %539 : tensor<16x3072xf32>
    %542 = stablehlo.multiply %531, %541 : tensor<16x3072xf32>
    %543 = stablehlo.dot_general %542, %arg61, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %544 = stablehlo.broadcast_in_dim %arg53, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %545 = stablehlo.broadcast_in_dim %544, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %546 = stablehlo.add %543, %545 : tensor<16x768xf32>
    %547 = stablehlo.add %503, %546 : tensor<16x768xf32>
    %cst_89 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %548 = stablehlo.reduce(%547 init: %cst_89) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %549 = stablehlo.broadcast_in_dim %548, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_90 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %550 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %551 = stablehlo.divide %549, %550 : tensor<16x1xf32>
    %552 = stablehlo.broadcast_in_dim %551, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %553 = stablehlo.subtract %547, %552 : tensor<16x768xf32>
    %554 = stablehlo.multiply %553, %553 : tensor<16x768xf32>
    %cst_91 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %555 = stablehlo.reduce(%554 init: %cst_91) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %556 = stablehlo.broadcast_in_dim %555, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_92 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %557 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %558 = stablehlo.divide %556, %557 : tensor<16x1xf32>
    %cst_93 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %559 = stablehlo.broadcast_in_dim %cst_93, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %560 = stablehlo.add %558, %559 : tensor<16x1xf32>
    %561 = stablehlo.rsqrt %560 : tensor<16x1xf32>
    %562 = stablehlo.broadcast_in_dim %561, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %563 = stablehlo.multiply %553, %562 : tensor<16x768xf32>
    %564 = stablehlo.broadcast_in_dim %arg68, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %565 = stablehlo.broadcast_in_dim %564, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %566 = stablehlo.multiply %563, %565 : tensor<16x768xf32>
    %567 = stablehlo.broadcast_in_dim %arg67, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %568 = stablehlo.broadcast_in_dim %567, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %569 = stablehlo.add %566, %568 : tensor<16x768xf32>
    %570 = stablehlo.dot_general %569, %arg74, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %571 = stablehlo.broadcast_in_dim %arg66, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %572 = stablehlo.broadcast_in_dim %571, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %573 = stablehlo.add %570, %572 : tensor<16x2304xf32>
    %574 = stablehlo.slice %573 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %575 = stablehlo.slice %573 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %576 = stablehlo.slice %573 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %577 = stablehlo.reshape %574 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %578 = stablehlo.transpose %577, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %579 = stablehlo.reshape %575 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %580 = stablehlo.transpose %579, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %581 = stablehlo.reshape %576 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %582 = stablehlo.transpose %581, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %583 = stablehlo.dot_general %578, %580, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_94 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %584 = stablehlo.sqrt %cst_94 : tensor<f32>
    %585 = stablehlo.broadcast_in_dim %584, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %586 = stablehlo.divide %583, %585 : tensor<12x16x16xf32>
    %587 = stablehlo.iota dim = 0 : tensor<16xi32>
    %588 = stablehlo.broadcast_in_dim %587, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %589 = stablehlo.iota dim = 0 : tensor<16xi32>
    %590 = stablehlo.broadcast_in_dim %589, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %591 = stablehlo.broadcast_in_dim %588, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %592 = stablehlo.broadcast_in_dim %590, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %593 = stablehlo.compare LE, %591, %592, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %594 = stablehlo.broadcast_in_dim %593, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_95 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %595 = call @_where_0(%594, %586, %cst_95) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_96 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %596 = stablehlo.reduce(%595 init: %cst_96) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %597 = stablehlo.broadcast_in_dim %596, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %598 = stablehlo.broadcast_in_dim %597, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %599 = stablehlo.subtract %595, %598 : tensor<12x16x16xf32>
    %600 = stablehlo.exponential %599 : tensor<12x16x16xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %601 = stablehlo.reduce(%600 init: %cst_97) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %602 = stablehlo.broadcast_in_dim %601, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %603 = stablehlo.broadcast_in_dim %602, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %604 = stablehlo.divide %600, %603 : tensor<12x16x16xf32>
    %605 = stablehlo.dot_general %604, %582, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %606 = stablehlo.transpose %605, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %607 = stablehlo.reshape %606 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %608 = stablehlo.dot_general %607, %arg72, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %609 = stablehlo.broadcast_in_dim %arg64, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %610 = stablehlo.broadcast_in_dim %609, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %611 = stablehlo.add %608, %610 : tensor<16x768xf32>
    %612 = stablehlo.add %547, %611 : tensor<16x768xf32>
    %cst_98 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %613 = stablehlo.reduce(%612 init: %cst_98) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %614 = stablehlo.broadcast_in_dim %613, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_99 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %615 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %616 = stablehlo.divide %614, %615 : tensor<16x1xf32>
    %617 = stablehlo.broadcast_in_dim %616, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %618 = stablehlo.subtract %612, %617 : tensor<16x768xf32>
    %619 = stablehlo.multiply %618, %618 : tensor<16x768xf32>
    %cst_100 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %620 = stablehlo.reduce(%619 init: %cst_100) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %621 = stablehlo.broadcast_in_dim %620, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_101 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %622 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %623 = stablehlo.divide %621, %622 : tensor<16x1xf32>
    %cst_102 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %624 = stablehlo.broadcast_in_dim %cst_102, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %625 = stablehlo.add %623, %624 : tensor<16x1xf32>
    %626 = stablehlo.rsqrt %625 : tensor<16x1xf32>
    %627 = stablehlo.broadcast_in_dim %626, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %628 = stablehlo.multiply %618, %627 : tensor<16x768xf32>
    %629 = stablehlo.broadcast_in_dim %arg70, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %630 = stablehlo.broadcast_in_dim %629, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %631 = stablehlo.multiply %628, %630 : tensor<16x768xf32>
    %632 = stablehlo.broadcast_in_dim %arg69, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %633 = stablehlo.broadcast_in_dim %632, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %634 = stablehlo.add %631, %633 : tensor<16x768xf32>
    %635 = stablehlo.dot_general %634, %arg71, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %636 = stablehlo.broadcast_in_dim %arg63, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %637 = stablehlo.broadcast_in_dim %636, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %638 = stablehlo.add %635, %637 : tensor<16x3072xf32>
    %cst_103 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %639 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %640 = stablehlo.multiply %639, %638 : tensor<16x3072xf32>
    %cst_104 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %641 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %642 = stablehlo.multiply %641, %638 : tensor<16x3072xf32>
    %643 = stablehlo.multiply %642, %638 : tensor<16x3072xf32>
    %644 = stablehlo.multiply %643, %638 : tensor<16x3072xf32>
    %645 = stablehlo.add %638, %644 : tensor<16x3072xf32>
    %cst_105 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %646 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %647 = stablehlo.multiply %646, %645 : tensor<16x3072xf32>
    %648 = stablehlo.tanh %647 : tensor<16x3072xf32>
    %cst_106 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %649 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %650 = stablehlo.add %649, %648 : tensor<16x3072xf32>
    %651 = stablehlo.multiply %640, %650 : tensor<16x3072xf32>
    %652 = stablehlo.dot_general %651, %arg73, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %653 = stablehlo.broadcast_in_dim %arg65, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %654 = stablehlo.broadcast_in_dim %653, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %655 = stablehlo.add %652, %654 : tensor<16x768xf32>
    %656 = stablehlo.add %612, %655 : tensor<16x768xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %657 = stablehlo.reduce(%656 init: %cst_107) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %658 = stablehlo.broadcast_in_dim %657, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_108 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %659 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %660 = stablehlo.divide %658, %659 : tensor<16x1xf32>
    %661 = stablehlo.broadcast_in_dim %660, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %662 = stablehlo.subtract %656, %661 : tensor<16x768xf32>
    %663 = stablehlo.multiply %662, %662 : tensor<16x768xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %664 = stablehlo.reduce(%663 init: %cst_109) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %665 = stablehlo.broadcast_in_dim %664, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_110 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %666 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %667 = stablehlo.divide %665, %666 : tensor<16x1xf32>
    %cst_111 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %668 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %669 = stablehlo.add %667, %668 : tensor<16x1xf32>
    %670 = stablehlo.rsqrt %669 : tensor<16x1xf32>
    %671 = stablehlo.broadcast_in_dim %670, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %672 = stablehlo.multiply %662, %671 : tensor<16x768xf32>
    %673 = stablehlo.broadcast_in_dim %arg80, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %674 = stablehlo.broadcast_in_dim %673, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %675 = stablehlo.multiply %672, %674 : tensor<16x768xf32>
    %676 = stablehlo.broadcast_in_dim %arg79, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %677 = stablehlo.broadcast_in_dim %676, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %678 = stablehlo.add %675, %677 : tensor<16x768xf32>
    %679 = stablehlo.dot_general %678, %arg86, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %680 = stablehlo.broadcast_in_dim %arg78, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %681 = stablehlo.broadcast_in_dim %680, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %682 = stablehlo.add %679, %681 : tensor<16x2304xf32>
    %683 = stablehlo.slice %682 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %684 = stablehlo.slice %682 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %685 = stablehlo.slice %682 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %686 = stablehlo.reshape %683 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %687 = stablehlo.transpose %686, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %688 = stablehlo.reshape %684 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %689 = stablehlo.transpose %688, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %690 = stablehlo.reshape %685 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %691 = stablehlo.transpose %690, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %692 = stablehlo.dot_general %687, %689, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_112 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %693 = stablehlo.sqrt %cst_112 : tensor<f32>
    %694 = stablehlo.broadcast_in_dim %693, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %695 = stablehlo.divide %692, %694 : tensor<12x16x16xf32>
    %696 = stablehlo.iota dim = 0 : tensor<16xi32>
    %697 = stablehlo.broadcast_in_dim %696, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %698 = stablehlo.iota dim = 0 : tensor<16xi32>
    %699 = stablehlo.broadcast_in_dim %698, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %700 = stablehlo.broadcast_in_dim %697, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %701 = stablehlo.broadcast_in_dim %699, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %702 = stablehlo.compare LE, %700, %701, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %703 = stablehlo.broadcast_in_dim %702, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_113 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %704 = call @_where_0(%703, %695, %cst_113) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_114 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %705 = stablehlo.reduce(%704 init: %cst_114) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %706 = stablehlo.broadcast_in_dim %705, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %707 = stablehlo.broadcast_in_dim %706, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %708 = stablehlo.subtract %704, %707 : tensor<12x16x16xf32>
    %709 = stablehlo.exponential %708 : tensor<12x16x16xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %710 = stablehlo.reduce(%709 init: %cst_115) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %711 = stablehlo.broadcast_in_dim %710, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %712 = stablehlo.broadcast_in_dim %711, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %713 = stablehlo.divide %709, %712 : tensor<12x16x16xf32>
    %714 = stablehlo.dot_general %713, %691, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %715 = stablehlo.transpose %714, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %716 = stablehlo.reshape %715 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %717 = stablehlo.dot_general %716, %arg84, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %718 = stablehlo.broadcast_in_dim %arg76, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %719 = stablehlo.broadcast_in_dim %718, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %720 = stablehlo.add %717, %719 : tensor<16x768xf32>
    %721 = stablehlo.add %656, %720 : tensor<16x768xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %722 = stablehlo.reduce(%721 init: %cst_116) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %723 = stablehlo.broadcast_in_dim %722, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_117 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %724 = stablehlo.broadcast_in_dim %cst_117, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %725 = stablehlo.divide %723, %724 : tensor<16x1xf32>
    %726 = stablehlo.broadcast_in_dim %725, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %727 = stablehlo.subtract %721, %726 : tensor<16x768xf32>
    %728 = stablehlo.multiply %727, %727 : tensor<16x768xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %729 = stablehlo.reduce(%728 init: %cst_118) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %730 = stablehlo.broadcast_in_dim %729, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_119 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %731 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %732 = stablehlo.divide %730, %731 : tensor<16x1xf32>
    %cst_120 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %733 = stablehlo.broadcast_in_dim %cst_120, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %734 = stablehlo.add %732, %733 : tensor<16x1xf32>
    %735 = stablehlo.rsqrt %734 : tensor<16x1xf32>
    %736 = stablehlo.broadcast_in_dim %735, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %737 = stablehlo.multiply %727, %736 : tensor<16x768xf32>
    %738 = stablehlo.broadcast_in_dim %arg82, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %739 = stablehlo.broadcast_in_dim %738, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %740 = stablehlo.multiply %737, %739 : tensor<16x768xf32>
    %741 = stablehlo.broadcast_in_dim %arg81, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %742 = stablehlo.broadcast_in_dim %741, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %743 = stablehlo.add %740, %742 : tensor<16x768xf32>
    %744 = stablehlo.dot_general %743, %arg83, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %745 = stablehlo.broadcast_in_dim %arg75, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %746 = stablehlo.broadcast_in_dim %745, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %747 = stablehlo.add %744, %746 : tensor<16x3072xf32>
    %cst_121 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %748 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %749 = stablehlo.multiply %748, %747 : tensor<16x3072xf32>
    %cst_122 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %750 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %751 = stablehlo.multiply %750, %747 : tensor<16x3072xf32>
    %752 = stablehlo.multiply %751, %747 : tensor<16x3072xf32>
    %753 = stablehlo.multiply %752, %747 : tensor<16x3072xf32>
    %754 = stablehlo.add %747, %753 : tensor<16x3072xf32>
    %cst_123 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %755 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %756 = stablehlo.multiply %755, %754 : tensor<16x3072xf32>
    %757 = stablehlo.tanh %756 : tensor<16x3072xf32>
    %cst_124 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %758 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %759 = stablehlo.add %758, %757 : tensor<16x3072xf32>
    %760 = stablehlo.multiply %749, %759 : tensor<16x3072xf32>
    %761 = stablehlo.dot_general %760, %arg85, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %762 = stablehlo.broadcast_in_dim %arg77, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %763 = stablehlo.broadcast_in_dim %762, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %764 = stablehlo.add %761, %763 : tensor<16x768xf32>
    %765 = stablehlo.add %721, %764 : tensor<16x768xf32>
    %cst_125 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %766 = stablehlo.reduce(%765 init: %cst_125) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %767 = stablehlo.broadcast_in_dim %766, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_126 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %768 = stablehlo.broadcast_in_dim %cst_126, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %769 = stablehlo.divide %767, %768 : tensor<16x1xf32>
    %770 = stablehlo.broadcast_in_dim %769, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %771 = stablehlo.subtract %765, %770 : tensor<16x768xf32>
    %772 = stablehlo.multiply %771, %771 : tensor<16x768xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %773 = stablehlo.reduce(%772 init: %cst_127) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %774 = stablehlo.broadcast_in_dim %773, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_128 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %775 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %776 = stablehlo.divide %774, %775 : tensor<16x1xf32>
    %cst_129 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %777 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %778 = stablehlo.add %776, %777 : tensor<16x1xf32>
    %779 = stablehlo.rsqrt %778 : tensor<16x1xf32>
    %780 = stablehlo.broadcast_in_dim %779, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %781 = stablehlo.multiply %771, %780 : tensor<16x768xf32>
    %782 = stablehlo.broadcast_in_dim %arg92, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %783 = stablehlo.broadcast_in_dim %782, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %784 = stablehlo.multiply %781, %783 : tensor<16x768xf32>
    %785 = stablehlo.broadcast_in_dim %arg91, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %786 = stablehlo.broadcast_in_dim %785, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %787 = stablehlo.add %784, %786 : tensor<16x768xf32>
    %788 = stablehlo.dot_general %787, %arg98, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %789 = stablehlo.broadcast_in_dim %arg90, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %790 = stablehlo.broadcast_in_dim %789, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %791 = stablehlo.add %788, %790 : tensor<16x2304xf32>
    %792 = stablehlo.slice %791 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %793 = stablehlo.slice %791 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %794 = stablehlo.slice %791 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %795 = stablehlo.reshape %792 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %796 = stablehlo.transpose %795, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %797 = stablehlo.reshape %793 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %798 = stablehlo.transpose %797, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %799 = stablehlo.reshape %794 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %800 = stablehlo.transpose %799, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %801 = stablehlo.dot_general %796, %798, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_130 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %802 = stablehlo.sqrt %cst_130 : tensor<f32>
    %803 = stablehlo.broadcast_in_dim %802, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %804 = stablehlo.divide %801, %803 : tensor<12x16x16xf32>
    %805 = stablehlo.iota dim = 0 : tensor<16xi32>
    %806 = stablehlo.broadcast_in_dim %805, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %807 = stablehlo.iota dim = 0 : tensor<16xi32>
    %808 = stablehlo.broadcast_in_dim %807, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %809 = stablehlo.broadcast_in_dim %806, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %810 = stablehlo.broadcast_in_dim %808, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %811 = stablehlo.compare LE, %809, %810, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %812 = stablehlo.broadcast_in_dim %811, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_131 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %813 = call @_where_0(%812, %804, %cst_131) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_132 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %814 = stablehlo.reduce(%813 init: %cst_132) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %815 = stablehlo.broadcast_in_dim %814, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %816 = stablehlo.broadcast_in_dim %815, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %817 = stablehlo.subtract %813, %816 : tensor<12x16x16xf32>
    %818 = stablehlo.exponential %817 : tensor<12x16x16xf32>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %819 = stablehlo.reduce(%818 init: %cst_133) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %820 = stablehlo.broadcast_in_dim %819, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %821 = stablehlo.broadcast_in_dim %820, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %822 = stablehlo.divide %818, %821 : tensor<12x16x16xf32>
    %823 = stablehlo.dot_general %822, %800, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %824 = stablehlo.transpose %823, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %825 = stablehlo.reshape %824 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %826 = stablehlo.dot_general %825, %arg96, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %827 = stablehlo.broadcast_in_dim %arg88, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %828 = stablehlo.broadcast_in_dim %827, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %829 = stablehlo.add %826, %828 : tensor<16x768xf32>
    %830 = stablehlo.add %765, %829 : tensor<16x768xf32>
    %cst_134 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %831 = stablehlo.reduce(%830 init: %cst_134) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %832 = stablehlo.broadcast_in_dim %831, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_135 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %833 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %834 = stablehlo.divide %832, %833 : tensor<16x1xf32>
    %835 = stablehlo.broadcast_in_dim %834, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %836 = stablehlo.subtract %830, %835 : tensor<16x768xf32>
    %837 = stablehlo.multiply %836, %836 : tensor<16x768xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %838 = stablehlo.reduce(%837 init: %cst_136) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %839 = stablehlo.broadcast_in_dim %838, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_137 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %840 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %841 = stablehlo.divide %839, %840 : tensor<16x1xf32>
    %cst_138 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %842 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %843 = stablehlo.add %841, %842 : tensor<16x1xf32>
    %844 = stablehlo.rsqrt %843 : tensor<16x1xf32>
    %845 = stablehlo.broadcast_in_dim %844, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %846 = stablehlo.multiply %836, %845 : tensor<16x768xf32>
    %847 = stablehlo.broadcast_in_dim %arg94, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %848 = stablehlo.broadcast_in_dim %847, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %849 = stablehlo.multiply %846, %848 : tensor<16x768xf32>
    %850 = stablehlo.broadcast_in_dim %arg93, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %851 = stablehlo.broadcast_in_dim %850, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %852 = stablehlo.add %849, %851 : tensor<16x768xf32>
    %853 = stablehlo.dot_general %852, %arg95, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %854 = stablehlo.broadcast_in_dim %arg87, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %855 = stablehlo.broadcast_in_dim %854, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %856 = stablehlo.add %853, %855 : tensor<16x3072xf32>
    %cst_139 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %857 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %858 = stablehlo.multiply %857, %856 : tensor<16x3072xf32>
    %cst_140 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %859 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %860 = stablehlo.multiply %859, %856 : tensor<16x3072xf32>
    %861 = stablehlo.multiply %860, %856 : tensor<16x3072xf32>
    %862 = stablehlo.multiply %861, %856 : tensor<16x3072xf32>
    %863 = stablehlo.add %856, %862 : tensor<16x3072xf32>
    %cst_141 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %864 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %865 = stablehlo.multiply %864, %863 : tensor<16x3072xf32>
    %866 = stablehlo.tanh %865 : tensor<16x3072xf32>
    %cst_142 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %867 = stablehlo.broadcast_in_dim %cst_142, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %868 = stablehlo.add %867, %866 : tensor<16x3072xf32>
    %869 = stablehlo.multiply %858, %868 : tensor<16x3072xf32>
    %870 = stablehlo.dot_general %869, %arg97, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %871 = stablehlo.broadcast_in_dim %arg89, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %872 = stablehlo.broadcast_in_dim %871, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %873 = stablehlo.add %870, %872 : tensor<16x768xf32>
    %874 = stablehlo.add %830, %873 : tensor<16x768xf32>
    %cst_143 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %875 = stablehlo.reduce(%874 init: %cst_143) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %876 = stablehlo.broadcast_in_dim %875, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_144 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %877 = stablehlo.broadcast_in_dim %cst_144, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %878 = stablehlo.divide %876, %877 : tensor<16x1xf32>
    %879 = stablehlo.broadcast_in_dim %878, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %880 = stablehlo.subtract %874, %879 : tensor<16x768xf32>
    %881 = stablehlo.multiply %880, %880 : tensor<16x768xf32>
    %cst_145 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %882 = stablehlo.reduce(%881 init: %cst_145) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %883 = stablehlo.broadcast_in_dim %882, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_146 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %884 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %885 = stablehlo.divide %883, %884 : tensor<16x1xf32>
    %cst_147 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %886 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %887 = stablehlo.add %885, %886 : tensor<16x1xf32>
    %888 = stablehlo.rsqrt %887 : tensor<16x1xf32>
    %889 = stablehlo.broadcast_in_dim %888, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %890 = stablehlo.multiply %880, %889 : tensor<16x768xf32>
    %891 = stablehlo.broadcast_in_dim %arg104, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %892 = stablehlo.broadcast_in_dim %891, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %893 = stablehlo.multiply %890, %892 : tensor<16x768xf32>
    %894 = stablehlo.broadcast_in_dim %arg103, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %895 = stablehlo.broadcast_in_dim %894, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %896 = stablehlo.add %893, %895 : tensor<16x768xf32>
    %897 = stablehlo.dot_general %896, %arg110, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %898 = stablehlo.broadcast_in_dim %arg102, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %899 = stablehlo.broadcast_in_dim %898, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %900 = stablehlo.add %897, %899 : tensor<16x2304xf32>
    %901 = stablehlo.slice %900 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %902 = stablehlo.slice %900 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %903 = stablehlo.slice %900 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %904 = stablehlo.reshape %901 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %905 = stablehlo.transpose %904, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %906 = stablehlo.reshape %902 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %907 = stablehlo.transpose %906, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %908 = stablehlo.reshape %903 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %909 = stablehlo.transpose %908, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %910 = stablehlo.dot_general %905, %907, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_148 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %911 = stablehlo.sqrt %cst_148 : tensor<f32>
    %912 = stablehlo.broadcast_in_dim %911, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %913 = stablehlo.divide %910, %912 : tensor<12x16x16xf32>
    %914 = stablehlo.iota dim = 0 : tensor<16xi32>
    %915 = stablehlo.broadcast_in_dim %914, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %916 = stablehlo.iota dim = 0 : tensor<16xi32>
    %917 = stablehlo.broadcast_in_dim %916, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %918 = stablehlo.broadcast_in_dim %915, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %919 = stablehlo.broadcast_in_dim %917, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %920 = stablehlo.compare LE, %918, %919, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %921 = stablehlo.broadcast_in_dim %920, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_149 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %922 = call @_where_0(%921, %913, %cst_149) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_150 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %923 = stablehlo.reduce(%922 init: %cst_150) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %924 = stablehlo.broadcast_in_dim %923, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %925 = stablehlo.broadcast_in_dim %924, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %926 = stablehlo.subtract %922, %925 : tensor<12x16x16xf32>
    %927 = stablehlo.exponential %926 : tensor<12x16x16xf32>
    %cst_151 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %928 = stablehlo.reduce(%927 init: %cst_151) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %929 = stablehlo.broadcast_in_dim %928, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %930 = stablehlo.broadcast_in_dim %929, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %931 = stablehlo.divide %927, %930 : tensor<12x16x16xf32>
    %932 = stablehlo.dot_general %931, %909, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %933 = stablehlo.transpose %932, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %934 = stablehlo.reshape %933 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %935 = stablehlo.dot_general %934, %arg108, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %936 = stablehlo.broadcast_in_dim %arg100, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %937 = stablehlo.broadcast_in_dim %936, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %938 = stablehlo.add %935, %937 : tensor<16x768xf32>
    %939 = stablehlo.add %874, %938 : tensor<16x768xf32>
    %cst_152 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %940 = stablehlo.reduce(%939 init: %cst_152) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %941 = stablehlo.broadcast_in_dim %940, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_153 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %942 = stablehlo.broadcast_in_dim %cst_153, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %943 = stablehlo.divide %941, %942 : tensor<16x1xf32>
    %944 = stablehlo.broadcast_in_dim %943, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %945 = stablehlo.subtract %939, %944 : tensor<16x768xf32>
    %946 = stablehlo.multiply %945, %945 : tensor<16x768xf32>
    %cst_154 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %947 = stablehlo.reduce(%946 init: %cst_154) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %948 = stablehlo.broadcast_in_dim %947, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_155 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %949 = stablehlo.broadcast_in_dim %cst_155, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %950 = stablehlo.divide %948, %949 : tensor<16x1xf32>
    %cst_156 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %951 = stablehlo.broadcast_in_dim %cst_156, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %952 = stablehlo.add %950, %951 : tensor<16x1xf32>
    %953 = stablehlo.rsqrt %952 : tensor<16x1xf32>
    %954 = stablehlo.broadcast_in_dim %953, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %955 = stablehlo.multiply %945, %954 : tensor<16x768xf32>
    %956 = stablehlo.broadcast_in_dim %arg106, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %957 = stablehlo.broadcast_in_dim %956, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %958 = stablehlo.multiply %955, %957 : tensor<16x768xf32>
    %959 = stablehlo.broadcast_in_dim %arg105, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %960 = stablehlo.broadcast_in_dim %959, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %961 = stablehlo.add %958, %960 : tensor<16x768xf32>
    %962 = stablehlo.dot_general %961, %arg107, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %963 = stablehlo.broadcast_in_dim %arg99, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %964 = stablehlo.broadcast_in_dim %963, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %965 = stablehlo.add %962, %964 : tensor<16x3072xf32>
    %cst_157 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %966 = stablehlo.broadcast_in_dim %cst_157, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %967 = stablehlo.multiply %966, %965 : tensor<16x3072xf32>
    %cst_158 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %968 = stablehlo.broadcast_in_dim %cst_158, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %969 = stablehlo.multiply %968, %965 : tensor<16x3072xf32>
    %970 = stablehlo.multiply %969, %965 : tensor<16x3072xf32>
    %971 = stablehlo.multiply %970, %965 : tensor<16x3072xf32>
    %972 = stablehlo.add %965, %971 : tensor<16x3072xf32>
    %cst_159 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %973 = stablehlo.broadcast_in_dim %cst_159, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %974 = stablehlo.multiply %973, %972 : tensor<16x3072xf32>
    %975 = stablehlo.tanh %974 : tensor<16x3072xf32>
    %cst_160 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %976 = stablehlo.broadcast_in_dim %cst_160, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %977 = stablehlo.add %976, %975 : tensor<16x3072xf32>
    %978 = stablehlo.multiply %967, %977 : tensor<16x3072xf32>
    %979 = stablehlo.dot_general %978, %arg109, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %980 = stablehlo.broadcast_in_dim %arg101, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %981 = stablehlo.broadcast_in_dim %980, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %982 = stablehlo.add %979, %981 : tensor<16x768xf32>
    %983 = stablehlo.add %939, %982 : tensor<16x768xf32>
    %cst_161 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %984 = stablehlo.reduce(%983 init: %cst_161) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %985 = stablehlo.broadcast_in_dim %984, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_162 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %986 = stablehlo.broadcast_in_dim %cst_162, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %987 = stablehlo.divide %985, %986 : tensor<16x1xf32>
    %988 = stablehlo.broadcast_in_dim %987, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %989 = stablehlo.subtract %983, %988 : tensor<16x768xf32>
    %990 = stablehlo.multiply %989, %989 : tensor<16x768xf32>
    %cst_163 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %991 = stablehlo.reduce(%990 init: %cst_163) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %992 = stablehlo.broadcast_in_dim %991, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_164 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %993 = stablehlo.broadcast_in_dim %cst_164, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %994 = stablehlo.divide %992, %993 : tensor<16x1xf32>
    %cst_165 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %995 = stablehlo.broadcast_in_dim %cst_165, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %996 = stablehlo.add %994, %995 : tensor<16x1xf32>
    %997 = stablehlo.rsqrt %996 : tensor<16x1xf32>
    %998 = stablehlo.broadcast_in_dim %997, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %999 = stablehlo.multiply %989, %998 : tensor<16x768xf32>
    %1000 = stablehlo.broadcast_in_dim %arg116, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1001 = stablehlo.broadcast_in_dim %1000, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1002 = stablehlo.multiply %999, %1001 : tensor<16x768xf32>
    %1003 = stablehlo.broadcast_in_dim %arg115, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1004 = stablehlo.broadcast_in_dim %1003, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1005 = stablehlo.add %1002, %1004 : tensor<16x768xf32>
    %1006 = stablehlo.dot_general %1005, %arg122, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %1007 = stablehlo.broadcast_in_dim %arg114, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %1008 = stablehlo.broadcast_in_dim %1007, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %1009 = stablehlo.add %1006, %1008 : tensor<16x2304xf32>
    %1010 = stablehlo.slice %1009 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1011 = stablehlo.slice %1009 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1012 = stablehlo.slice %1009 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1013 = stablehlo.reshape %1010 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1014 = stablehlo.transpose %1013, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1015 = stablehlo.reshape %1011 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1016 = stablehlo.transpose %1015, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1017 = stablehlo.reshape %1012 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1018 = stablehlo.transpose %1017, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1019 = stablehlo.dot_general %1014, %1016, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_166 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %1020 = stablehlo.sqrt %cst_166 : tensor<f32>
    %1021 = stablehlo.broadcast_in_dim %1020, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %1022 = stablehlo.divide %1019, %1021 : tensor<12x16x16xf32>
    %1023 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1024 = stablehlo.broadcast_in_dim %1023, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %1025 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1026 = stablehlo.broadcast_in_dim %1025, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %1027 = stablehlo.broadcast_in_dim %1024, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %1028 = stablehlo.broadcast_in_dim %1026, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %1029 = stablehlo.compare LE, %1027, %1028, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %1030 = stablehlo.broadcast_in_dim %1029, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_167 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1031 = call @_where_0(%1030, %1022, %cst_167) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_168 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1032 = stablehlo.reduce(%1031 init: %cst_168) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1033 = stablehlo.broadcast_in_dim %1032, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1034 = stablehlo.broadcast_in_dim %1033, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1035 = stablehlo.subtract %1031, %1034 : tensor<12x16x16xf32>
    %1036 = stablehlo.exponential %1035 : tensor<12x16x16xf32>
    %cst_169 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1037 = stablehlo.reduce(%1036 init: %cst_169) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1038 = stablehlo.broadcast_in_dim %1037, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1039 = stablehlo.broadcast_in_dim %1038, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1040 = stablehlo.divide %1036, %1039 : tensor<12x16x16xf32>
    %1041 = stablehlo.dot_general %1040, %1018, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %1042 = stablehlo.transpose %1041, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %1043 = stablehlo.reshape %1042 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %1044 = stablehlo.dot_general %1043, %arg120, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %1045 = stablehlo.broadcast_in_dim %arg112, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1046 = stablehlo.broadcast_in_dim %1045, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1047 = stablehlo.add %1044, %1046 : tensor<16x768xf32>
    %1048 = stablehlo.add %983, %1047 : tensor<16x768xf32>
    %cst_170 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1049 = stablehlo.reduce(%1048 init: %cst_170) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1050 = stablehlo.broadcast_in_dim %1049, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_171 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1051 = stablehlo.broadcast_in_dim %cst_171, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1052 = stablehlo.divide %1050, %1051 : tensor<16x1xf32>
    %1053 = stablehlo.broadcast_in_dim %1052, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1054 = stablehlo.subtract %1048, %1053 : tensor<16x768xf32>
    %1055 = stablehlo.multiply %1054, %1054 : tensor<16x768xf32>
    %cst_172 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1056 = stablehlo.reduce(%1055 init: %cst_172) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1057 = stablehlo.broadcast_in_dim %1056, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_173 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1058 = stablehlo.broadcast_in_dim %cst_173, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1059 = stablehlo.divide %1057, %1058 : tensor<16x1xf32>
    %cst_174 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1060 = stablehlo.broadcast_in_dim %cst_174, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1061 = stablehlo.add %1059, %1060 : tensor<16x1xf32>
    %1062 = stablehlo.rsqrt %1061 : tensor<16x1xf32>
    %1063 = stablehlo.broadcast_in_dim %1062, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1064 = stablehlo.multiply %1054, %1063 : tensor<16x768xf32>
    %1065 = stablehlo.broadcast_in_dim %arg118, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1066 = stablehlo.broadcast_in_dim %1065, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1067 = stablehlo.multiply %1064, %1066 : tensor<16x768xf32>
    %1068 = stablehlo.broadcast_in_dim %arg117, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1069 = stablehlo.broadcast_in_dim %1068, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1070 = stablehlo.add %1067, %1069 : tensor<16x768xf32>
    %1071 = stablehlo.dot_general %1070, %arg119, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %1072 = stablehlo.broadcast_in_dim %arg111, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %1073 = stablehlo.broadcast_in_dim %1072, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %1074 = stablehlo.add %1071, %1073 : tensor<16x3072xf32>
    %cst_175 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1075 = stablehlo.broadcast_in_dim %cst_175, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1076 = stablehlo.multiply %1075, %1074 : tensor<16x3072xf32>
    %cst_176 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1077 = stablehlo.broadcast_in_dim %cst_176, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1078 = stablehlo.multiply %1077, %1074 : tensor<16x3072xf32>
    %1079 = stablehlo.multiply %1078, %1074 : tensor<16x3072xf32>
    %1080 = stablehlo.multiply %1079, %1074 : tensor<16x3072xf32>
    %1081 = stablehlo.add %1074, %1080 : tensor<16x3072xf32>
    %cst_177 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %1082 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1083 = stablehlo.multiply %1082, %1081 : tensor<16x3072xf32>
    %1084 = stablehlo.tanh %1083 : tensor<16x3072xf32>
    %cst_178 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1085 = stablehlo.broadcast_in_dim %cst_178, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1086 = stablehlo.add %1085, %1084 : tensor<16x3072xf32>
    %1087 = stablehlo.multiply %1076, %1086 : tensor<16x3072xf32>
    %1088 = stablehlo.dot_general %1087, %arg121, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %1089 = stablehlo.broadcast_in_dim %arg113, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1090 = stablehlo.broadcast_in_dim %1089, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1091 = stablehlo.add %1088, %1090 : tensor<16x768xf32>
    %1092 = stablehlo.add %1048, %1091 : tensor<16x768xf32>
    %cst_179 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1093 = stablehlo.reduce(%1092 init: %cst_179) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1094 = stablehlo.broadcast_in_dim %1093, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_180 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1095 = stablehlo.broadcast_in_dim %cst_180, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1096 = stablehlo.divide %1094, %1095 : tensor<16x1xf32>
    %1097 = stablehlo.broadcast_in_dim %1096, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1098 = stablehlo.subtract %1092, %1097 : tensor<16x768xf32>
    %1099 = stablehlo.multiply %1098, %1098 : tensor<16x768xf32>
    %cst_181 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1100 = stablehlo.reduce(%1099 init: %cst_181) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1101 = stablehlo.broadcast_in_dim %1100, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_182 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1102 = stablehlo.broadcast_in_dim %cst_182, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1103 = stablehlo.divide %1101, %1102 : tensor<16x1xf32>
    %cst_183 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1104 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1105 = stablehlo.add %1103, %1104 : tensor<16x1xf32>
    %1106 = stablehlo.rsqrt %1105 : tensor<16x1xf32>
    %1107 = stablehlo.broadcast_in_dim %1106, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1108 = stablehlo.multiply %1098, %1107 : tensor<16x768xf32>
    %1109 = stablehlo.broadcast_in_dim %arg128, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1110 = stablehlo.broadcast_in_dim %1109, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1111 = stablehlo.multiply %1108, %1110 : tensor<16x768xf32>
    %1112 = stablehlo.broadcast_in_dim %arg127, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1113 = stablehlo.broadcast_in_dim %1112, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1114 = stablehlo.add %1111, %1113 : tensor<16x768xf32>
    %1115 = stablehlo.dot_general %1114, %arg134, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %1116 = stablehlo.broadcast_in_dim %arg126, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %1117 = stablehlo.broadcast_in_dim %1116, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %1118 = stablehlo.add %1115, %1117 : tensor<16x2304xf32>
    %1119 = stablehlo.slice %1118 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1120 = stablehlo.slice %1118 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1121 = stablehlo.slice %1118 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1122 = stablehlo.reshape %1119 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1123 = stablehlo.transpose %1122, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1124 = stablehlo.reshape %1120 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1125 = stablehlo.transpose %1124, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1126 = stablehlo.reshape %1121 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1127 = stablehlo.transpose %1126, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1128 = stablehlo.dot_general %1123, %1125, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_184 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %1129 = stablehlo.sqrt %cst_184 : tensor<f32>
    %1130 = stablehlo.broadcast_in_dim %1129, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %1131 = stablehlo.divide %1128, %1130 : tensor<12x16x16xf32>
    %1132 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1133 = stablehlo.broadcast_in_dim %1132, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %1134 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1135 = stablehlo.broadcast_in_dim %1134, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %1136 = stablehlo.broadcast_in_dim %1133, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %1137 = stablehlo.broadcast_in_dim %1135, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %1138 = stablehlo.compare LE, %1136, %1137, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %1139 = stablehlo.broadcast_in_dim %1138, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_185 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1140 = call @_where_0(%1139, %1131, %cst_185) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_186 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1141 = stablehlo.reduce(%1140 init: %cst_186) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1142 = stablehlo.broadcast_in_dim %1141, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1143 = stablehlo.broadcast_in_dim %1142, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1144 = stablehlo.subtract %1140, %1143 : tensor<12x16x16xf32>
    %1145 = stablehlo.exponential %1144 : tensor<12x16x16xf32>
    %cst_187 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1146 = stablehlo.reduce(%1145 init: %cst_187) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1147 = stablehlo.broadcast_in_dim %1146, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1148 = stablehlo.broadcast_in_dim %1147, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1149 = stablehlo.divide %1145, %1148 : tensor<12x16x16xf32>
    %1150 = stablehlo.dot_general %1149, %1127, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %1151 = stablehlo.transpose %1150, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %1152 = stablehlo.reshape %1151 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %1153 = stablehlo.dot_general %1152, %arg132, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %1154 = stablehlo.broadcast_in_dim %arg124, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1155 = stablehlo.broadcast_in_dim %1154, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1156 = stablehlo.add %1153, %1155 : tensor<16x768xf32>
    %1157 = stablehlo.add %1092, %1156 : tensor<16x768xf32>
    %cst_188 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1158 = stablehlo.reduce(%1157 init: %cst_188) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1159 = stablehlo.broadcast_in_dim %1158, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_189 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1160 = stablehlo.broadcast_in_dim %cst_189, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1161 = stablehlo.divide %1159, %1160 : tensor<16x1xf32>
    %1162 = stablehlo.broadcast_in_dim %1161, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1163 = stablehlo.subtract %1157, %1162 : tensor<16x768xf32>
    %1164 = stablehlo.multiply %1163, %1163 : tensor<16x768xf32>
    %cst_190 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1165 = stablehlo.reduce(%1164 init: %cst_190) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1166 = stablehlo.broadcast_in_dim %1165, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_191 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1167 = stablehlo.broadcast_in_dim %cst_191, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1168 = stablehlo.divide %1166, %1167 : tensor<16x1xf32>
    %cst_192 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1169 = stablehlo.broadcast_in_dim %cst_192, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1170 = stablehlo.add %1168, %1169 : tensor<16x1xf32>
    %1171 = stablehlo.rsqrt %1170 : tensor<16x1xf32>
    %1172 = stablehlo.broadcast_in_dim %1171, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1173 = stablehlo.multiply %1163, %1172 : tensor<16x768xf32>
    %1174 = stablehlo.broadcast_in_dim %arg130, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1175 = stablehlo.broadcast_in_dim %1174, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1176 = stablehlo.multiply %1173, %1175 : tensor<16x768xf32>
    %1177 = stablehlo.broadcast_in_dim %arg129, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1178 = stablehlo.broadcast_in_dim %1177, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1179 = stablehlo.add %1176, %1178 : tensor<16x768xf32>
    %1180 = stablehlo.dot_general %1179, %arg131, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %1181 = stablehlo.broadcast_in_dim %arg123, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %1182 = stablehlo.broadcast_in_dim %1181, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %1183 = stablehlo.add %1180, %1182 : tensor<16x3072xf32>
    %cst_193 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1184 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1185 = stablehlo.multiply %1184, %1183 : tensor<16x3072xf32>
    %cst_194 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1186 = stablehlo.broadcast_in_dim %cst_194, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1187 = stablehlo.multiply %1186, %1183 : tensor<16x3072xf32>
    %1188 = stablehlo.multiply %1187, %1183 : tensor<16x3072xf32>
    %1189 = stablehlo.multiply %1188, %1183 : tensor<16x3072xf32>
    %1190 = stablehlo.add %1183, %1189 : tensor<16x3072xf32>
    %cst_195 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %1191 = stablehlo.broadcast_in_dim %cst_195, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1192 = stablehlo.multiply %1191, %1190 : tensor<16x3072xf32>
    %1193 = stablehlo.tanh %1192 : tensor<16x3072xf32>
    %cst_196 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1194 = stablehlo.broadcast_in_dim %cst_196, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1195 = stablehlo.add %1194, %1193 : tensor<16x3072xf32>
    %1196 = stablehlo.multiply %1185, %1195 : tensor<16x3072xf32>
    %1197 = stablehlo.dot_general %1196, %arg133, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %1198 = stablehlo.broadcast_in_dim %arg125, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1199 = stablehlo.broadcast_in_dim %1198, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1200 = stablehlo.add %1197, %1199 : tensor<16x768xf32>
    %1201 = stablehlo.add %1157, %1200 : tensor<16x768xf32>
    %cst_197 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1202 = stablehlo.reduce(%1201 init: %cst_197) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1203 = stablehlo.broadcast_in_dim %1202, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_198 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1204 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1205 = stablehlo.divide %1203, %1204 : tensor<16x1xf32>
    %1206 = stablehlo.broadcast_in_dim %1205, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1207 = stablehlo.subtract %1201, %1206 : tensor<16x768xf32>
    %1208 = stablehlo.multiply %1207, %1207 : tensor<16x768xf32>
    %cst_199 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1209 = stablehlo.reduce(%1208 init: %cst_199) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1210 = stablehlo.broadcast_in_dim %1209, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_200 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1211 = stablehlo.broadcast_in_dim %cst_200, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1212 = stablehlo.divide %1210, %1211 : tensor<16x1xf32>
    %cst_201 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1213 = stablehlo.broadcast_in_dim %cst_201, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1214 = stablehlo.add %1212, %1213 : tensor<16x1xf32>
    %1215 = stablehlo.rsqrt %1214 : tensor<16x1xf32>
    %1216 = stablehlo.broadcast_in_dim %1215, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1217 = stablehlo.multiply %1207, %1216 : tensor<16x768xf32>
    %1218 = stablehlo.broadcast_in_dim %arg140, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1219 = stablehlo.broadcast_in_dim %1218, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1220 = stablehlo.multiply %1217, %1219 : tensor<16x768xf32>
    %1221 = stablehlo.broadcast_in_dim %arg139, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1222 = stablehlo.broadcast_in_dim %1221, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1223 = stablehlo.add %1220, %1222 : tensor<16x768xf32>
    %1224 = stablehlo.dot_general %1223, %arg146, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x2304xf32>) -> tensor<16x2304xf32>
    %1225 = stablehlo.broadcast_in_dim %arg138, dims = [1] : (tensor<2304xf32>) -> tensor<1x2304xf32>
    %1226 = stablehlo.broadcast_in_dim %1225, dims = [0, 1] : (tensor<1x2304xf32>) -> tensor<16x2304xf32>
    %1227 = stablehlo.add %1224, %1226 : tensor<16x2304xf32>
    %1228 = stablehlo.slice %1227 [0:16, 0:768] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1229 = stablehlo.slice %1227 [0:16, 768:1536] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1230 = stablehlo.slice %1227 [0:16, 1536:2304] : (tensor<16x2304xf32>) -> tensor<16x768xf32>
    %1231 = stablehlo.reshape %1228 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1232 = stablehlo.transpose %1231, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1233 = stablehlo.reshape %1229 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1234 = stablehlo.transpose %1233, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1235 = stablehlo.reshape %1230 : (tensor<16x768xf32>) -> tensor<16x12x64xf32>
    %1236 = stablehlo.transpose %1235, dims = [1, 0, 2] : (tensor<16x12x64xf32>) -> tensor<12x16x64xf32>
    %1237 = stablehlo.dot_general %1232, %1234, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<12x16x64xf32>, tensor<12x16x64xf32>) -> tensor<12x16x16xf32>
    %cst_202 = stablehlo.constant dense<6.400000e+01> : tensor<f32>
    %1238 = stablehlo.sqrt %cst_202 : tensor<f32>
    %1239 = stablehlo.broadcast_in_dim %1238, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %1240 = stablehlo.divide %1237, %1239 : tensor<12x16x16xf32>
    %1241 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1242 = stablehlo.broadcast_in_dim %1241, dims = [1] : (tensor<16xi32>) -> tensor<1x16xi32>
    %1243 = stablehlo.iota dim = 0 : tensor<16xi32>
    %1244 = stablehlo.broadcast_in_dim %1243, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %1245 = stablehlo.broadcast_in_dim %1242, dims = [0, 1] : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %1246 = stablehlo.broadcast_in_dim %1244, dims = [0, 1] : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %1247 = stablehlo.compare LE, %1245, %1246, SIGNED : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %1248 = stablehlo.broadcast_in_dim %1247, dims = [1, 2] : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %cst_203 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1249 = call @_where_0(%1248, %1240, %cst_203) : (tensor<1x16x16xi1>, tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16x16xf32>
    %cst_204 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1250 = stablehlo.reduce(%1249 init: %cst_204) applies stablehlo.maximum across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1251 = stablehlo.broadcast_in_dim %1250, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1252 = stablehlo.broadcast_in_dim %1251, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1253 = stablehlo.subtract %1249, %1252 : tensor<12x16x16xf32>
    %1254 = stablehlo.exponential %1253 : tensor<12x16x16xf32>
    %cst_205 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1255 = stablehlo.reduce(%1254 init: %cst_205) applies stablehlo.add across dimensions = [2] : (tensor<12x16x16xf32>, tensor<f32>) -> tensor<12x16xf32>
    %1256 = stablehlo.broadcast_in_dim %1255, dims = [0, 1] : (tensor<12x16xf32>) -> tensor<12x16x1xf32>
    %1257 = stablehlo.broadcast_in_dim %1256, dims = [0, 1, 2] : (tensor<12x16x1xf32>) -> tensor<12x16x16xf32>
    %1258 = stablehlo.divide %1254, %1257 : tensor<12x16x16xf32>
    %1259 = stablehlo.dot_general %1258, %1236, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x16x16xf32>, tensor<12x16x64xf32>) -> tensor<12x16x64xf32>
    %1260 = stablehlo.transpose %1259, dims = [1, 0, 2] : (tensor<12x16x64xf32>) -> tensor<16x12x64xf32>
    %1261 = stablehlo.reshape %1260 : (tensor<16x12x64xf32>) -> tensor<16x768xf32>
    %1262 = stablehlo.dot_general %1261, %arg144, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x768xf32>) -> tensor<16x768xf32>
    %1263 = stablehlo.broadcast_in_dim %arg136, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1264 = stablehlo.broadcast_in_dim %1263, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1265 = stablehlo.add %1262, %1264 : tensor<16x768xf32>
    %1266 = stablehlo.add %1201, %1265 : tensor<16x768xf32>
    %cst_206 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1267 = stablehlo.reduce(%1266 init: %cst_206) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1268 = stablehlo.broadcast_in_dim %1267, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_207 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1269 = stablehlo.broadcast_in_dim %cst_207, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1270 = stablehlo.divide %1268, %1269 : tensor<16x1xf32>
    %1271 = stablehlo.broadcast_in_dim %1270, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1272 = stablehlo.subtract %1266, %1271 : tensor<16x768xf32>
    %1273 = stablehlo.multiply %1272, %1272 : tensor<16x768xf32>
    %cst_208 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1274 = stablehlo.reduce(%1273 init: %cst_208) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1275 = stablehlo.broadcast_in_dim %1274, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_209 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1276 = stablehlo.broadcast_in_dim %cst_209, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1277 = stablehlo.divide %1275, %1276 : tensor<16x1xf32>
    %cst_210 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1278 = stablehlo.broadcast_in_dim %cst_210, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1279 = stablehlo.add %1277, %1278 : tensor<16x1xf32>
    %1280 = stablehlo.rsqrt %1279 : tensor<16x1xf32>
    %1281 = stablehlo.broadcast_in_dim %1280, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1282 = stablehlo.multiply %1272, %1281 : tensor<16x768xf32>
    %1283 = stablehlo.broadcast_in_dim %arg142, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1284 = stablehlo.broadcast_in_dim %1283, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1285 = stablehlo.multiply %1282, %1284 : tensor<16x768xf32>
    %1286 = stablehlo.broadcast_in_dim %arg141, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1287 = stablehlo.broadcast_in_dim %1286, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1288 = stablehlo.add %1285, %1287 : tensor<16x768xf32>
    %1289 = stablehlo.dot_general %1288, %arg143, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x3072xf32>) -> tensor<16x3072xf32>
    %1290 = stablehlo.broadcast_in_dim %arg135, dims = [1] : (tensor<3072xf32>) -> tensor<1x3072xf32>
    %1291 = stablehlo.broadcast_in_dim %1290, dims = [0, 1] : (tensor<1x3072xf32>) -> tensor<16x3072xf32>
    %1292 = stablehlo.add %1289, %1291 : tensor<16x3072xf32>
    %cst_211 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1293 = stablehlo.broadcast_in_dim %cst_211, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1294 = stablehlo.multiply %1293, %1292 : tensor<16x3072xf32>
    %cst_212 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %1295 = stablehlo.broadcast_in_dim %cst_212, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1296 = stablehlo.multiply %1295, %1292 : tensor<16x3072xf32>
    %1297 = stablehlo.multiply %1296, %1292 : tensor<16x3072xf32>
    %1298 = stablehlo.multiply %1297, %1292 : tensor<16x3072xf32>
    %1299 = stablehlo.add %1292, %1298 : tensor<16x3072xf32>
    %cst_213 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %1300 = stablehlo.broadcast_in_dim %cst_213, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1301 = stablehlo.multiply %1300, %1299 : tensor<16x3072xf32>
    %1302 = stablehlo.tanh %1301 : tensor<16x3072xf32>
    %cst_214 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1303 = stablehlo.broadcast_in_dim %cst_214, dims = [] : (tensor<f32>) -> tensor<16x3072xf32>
    %1304 = stablehlo.add %1303, %1302 : tensor<16x3072xf32>
    %1305 = stablehlo.multiply %1294, %1304 : tensor<16x3072xf32>
    %1306 = stablehlo.dot_general %1305, %arg145, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3072xf32>, tensor<3072x768xf32>) -> tensor<16x768xf32>
    %1307 = stablehlo.broadcast_in_dim %arg137, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1308 = stablehlo.broadcast_in_dim %1307, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1309 = stablehlo.add %1306, %1308 : tensor<16x768xf32>
    %1310 = stablehlo.add %1266, %1309 : tensor<16x768xf32>
    %cst_215 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1311 = stablehlo.reduce(%1310 init: %cst_215) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1312 = stablehlo.broadcast_in_dim %1311, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_216 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1313 = stablehlo.broadcast_in_dim %cst_216, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1314 = stablehlo.divide %1312, %1313 : tensor<16x1xf32>
    %1315 = stablehlo.broadcast_in_dim %1314, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1316 = stablehlo.subtract %1310, %1315 : tensor<16x768xf32>
    %1317 = stablehlo.multiply %1316, %1316 : tensor<16x768xf32>
    %cst_217 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1318 = stablehlo.reduce(%1317 init: %cst_217) applies stablehlo.add across dimensions = [1] : (tensor<16x768xf32>, tensor<f32>) -> tensor<16xf32>
    %1319 = stablehlo.broadcast_in_dim %1318, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %cst_218 = stablehlo.constant dense<7.680000e+02> : tensor<f32>
    %1320 = stablehlo.broadcast_in_dim %cst_218, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1321 = stablehlo.divide %1319, %1320 : tensor<16x1xf32>
    %cst_219 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %1322 = stablehlo.broadcast_in_dim %cst_219, dims = [] : (tensor<f32>) -> tensor<16x1xf32>
    %1323 = stablehlo.add %1321, %1322 : tensor<16x1xf32>
    %1324 = stablehlo.rsqrt %1323 : tensor<16x1xf32>
    %1325 = stablehlo.broadcast_in_dim %1324, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x768xf32>
    %1326 = stablehlo.multiply %1316, %1325 : tensor<16x768xf32>
    %1327 = stablehlo.broadcast_in_dim %arg147, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1328 = stablehlo.broadcast_in_dim %1327, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1329 = stablehlo.multiply %1326, %1328 : tensor<16x768xf32>
    %1330 = stablehlo.broadcast_in_dim %arg148, dims = [1] : (tensor<768xf32>) -> tensor<1x768xf32>
    %1331 = stablehlo.broadcast_in_dim %1330, dims = [0, 1] : (tensor<1x768xf32>) -> tensor<16x768xf32>
    %1332 = stablehlo.add %1329, %1331 : tensor<16x768xf32>
    %1333 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<1024x768xf32>) -> tensor<768x1024xf32>
    %1334 = stablehlo.dot_general %1332, %1333, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x768xf32>, tensor<768x1024xf32>) -> tensor<16x1024xf32>
    return %1334 : tensor<16x1024xf32>
  }
  func.func private @_take(%arg0: tensor<1024x768xf32>, %arg1: tensor<16xi32>) -> tensor<16x768xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %c_0 = stablehlo.constant dense<1024> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<16xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<16xi1>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<16xi32>) -> tensor<16x1xi32>
    %c_1 = stablehlo.constant dense<1023> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<16x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<16x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<16x1xi32>, tensor<16x1xi32>) -> tensor<16x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<16x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<16x1xi1>, tensor<i1>) -> tensor<16xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 768>}> : (tensor<1024x768xf32>, tensor<16x1xi32>) -> tensor<16x768xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<16xi1>) -> tensor<16x768xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x768xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<16x768xi1>, tensor<16x768xf32>
    return %16 : tensor<16x768xf32>
  }
  func.func private @_where(%arg0: tensor<16xi1>, %arg1: tensor<16xi32>, %arg2: tensor<16xi32>) -> tensor<16xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<16xi1>, tensor<16xi32>
    return %0 : tensor<16xi32>
  }
  func.func private @_where_0(%arg0: tensor<1x16x16xi1>, %arg1: tensor<12x16x16xf32>, %arg2: tensor<f32>) -> tensor<12x16x16xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1, 2] : (tensor<1x16x16xi1>) -> tensor<12x16x16xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12x16x16xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<12x16x16xi1>, tensor<12x16x16xf32>
    return %3 : tensor<12x16x16xf32>
  }
}
