"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], function_type = (tensor<16x64xf32>, tensor<256xf32>, tensor<64xf32>, tensor<64xf32>, tensor<192xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64x256xf32>, tensor<64x64xf32>, tensor<256x64xf32>, tensor<64x192xf32>) -> tensor<16x64xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<16x64xf32>, %arg4: tensor<256xf32>, %arg5: tensor<64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<192xf32>, %arg8: tensor<64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64xf32>, %arg12: tensor<64x256xf32>, %arg13: tensor<64x64xf32>, %arg14: tensor<256x64xf32>, %arg15: tensor<64x192xf32>):
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%arg3, %4) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg26: tensor<f32>, %arg27: tensor<f32>):
      %136 = "stablehlo.add"(%arg26, %arg27) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%136) : (tensor<f32>) -> ()
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %7 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %9 = "stablehlo.divide"(%6, %8) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %11 = "stablehlo.subtract"(%arg3, %10) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %12 = "stablehlo.multiply"(%11, %11) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg24: tensor<f32>, %arg25: tensor<f32>):
      %135 = "stablehlo.add"(%arg24, %arg25) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%135) : (tensor<f32>) -> ()
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %16 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %18 = "stablehlo.divide"(%15, %17) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %19 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %21 = "stablehlo.add"(%18, %20) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %22 = "stablehlo.rsqrt"(%21) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %24 = "stablehlo.multiply"(%11, %23) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %25 = "stablehlo.broadcast_in_dim"(%arg9) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %27 = "stablehlo.multiply"(%24, %26) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %28 = "stablehlo.broadcast_in_dim"(%arg8) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %30 = "stablehlo.add"(%27, %29) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %31 = "stablehlo.dot_general"(%30, %arg15) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x192xf32>) -> tensor<16x192xf32>
    %32 = "stablehlo.broadcast_in_dim"(%arg7) <{broadcast_dimensions = array<i64: 1>}> : (tensor<192xf32>) -> tensor<1x192xf32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x192xf32>) -> tensor<16x192xf32>
    %34 = "stablehlo.add"(%31, %33) : (tensor<16x192xf32>, tensor<16x192xf32>) -> tensor<16x192xf32>
    %35 = "stablehlo.slice"(%34) <{limit_indices = array<i64: 16, 64>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %36 = "stablehlo.slice"(%34) <{limit_indices = array<i64: 16, 128>, start_indices = array<i64: 0, 64>, strides = array<i64: 1, 1>}> : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %37 = "stablehlo.slice"(%34) <{limit_indices = array<i64: 16, 192>, start_indices = array<i64: 0, 128>, strides = array<i64: 1, 1>}> : (tensor<16x192xf32>) -> tensor<16x64xf32>
    %38 = "stablehlo.reshape"(%35) : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %39 = "stablehlo.transpose"(%38) <{permutation = array<i64: 1, 0, 2>}> : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %40 = "stablehlo.reshape"(%36) : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %41 = "stablehlo.transpose"(%40) <{permutation = array<i64: 1, 0, 2>}> : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %42 = "stablehlo.reshape"(%37) : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %43 = "stablehlo.transpose"(%42) <{permutation = array<i64: 1, 0, 2>}> : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
    %44 = "stablehlo.dot_general"(%39, %41) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %45 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %46 = "stablehlo.sqrt"(%45) : (tensor<f32>) -> tensor<f32>
    %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x16xf32>
    %48 = "stablehlo.divide"(%44, %47) : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %49 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %50 = "stablehlo.broadcast_in_dim"(%49) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xi32>) -> tensor<1x16xi32>
    %51 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<16xi32>
    %52 = "stablehlo.broadcast_in_dim"(%51) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xi32>) -> tensor<16x1xi32>
    %53 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x16xi32>) -> tensor<16x16xi32>
    %54 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xi32>) -> tensor<16x16xi32>
    %55 = "stablehlo.compare"(%53, %54) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %56 = "stablehlo.broadcast_in_dim"(%55) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<16x16xi1>) -> tensor<1x16x16xi1>
    %57 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %58 = "func.call"(%56, %48, %57) <{callee = @_where}> : (tensor<1x16x16xi1>, tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>
    %59 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %60 = "stablehlo.reduce"(%58, %59) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg22: tensor<f32>, %arg23: tensor<f32>):
      %134 = "stablehlo.maximum"(%arg22, %arg23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%134) : (tensor<f32>) -> ()
    }) : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %61 = "stablehlo.broadcast_in_dim"(%60) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %62 = "stablehlo.broadcast_in_dim"(%61) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %63 = "stablehlo.subtract"(%58, %62) : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %64 = "stablehlo.exponential"(%63) : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %65 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %66 = "stablehlo.reduce"(%64, %65) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg20: tensor<f32>, %arg21: tensor<f32>):
      %133 = "stablehlo.add"(%arg20, %arg21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%133) : (tensor<f32>) -> ()
    }) : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16xf32>
    %67 = "stablehlo.broadcast_in_dim"(%66) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x16xf32>) -> tensor<4x16x1xf32>
    %68 = "stablehlo.broadcast_in_dim"(%67) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x16x1xf32>) -> tensor<4x16x16xf32>
    %69 = "stablehlo.divide"(%64, %68) : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %70 = "stablehlo.dot_general"(%69, %43) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    %71 = "stablehlo.transpose"(%70) <{permutation = array<i64: 1, 0, 2>}> : (tensor<4x16x16xf32>) -> tensor<16x4x16xf32>
    %72 = "stablehlo.reshape"(%71) : (tensor<16x4x16xf32>) -> tensor<16x64xf32>
    %73 = "stablehlo.dot_general"(%72, %arg13) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %74 = "stablehlo.broadcast_in_dim"(%arg5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %75 = "stablehlo.broadcast_in_dim"(%74) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %76 = "stablehlo.add"(%73, %75) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %77 = "stablehlo.add"(%arg3, %76) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %78 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %79 = "stablehlo.reduce"(%77, %78) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg18: tensor<f32>, %arg19: tensor<f32>):
      %132 = "stablehlo.add"(%arg18, %arg19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%132) : (tensor<f32>) -> ()
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %80 = "stablehlo.broadcast_in_dim"(%79) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %81 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %82 = "stablehlo.broadcast_in_dim"(%81) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %83 = "stablehlo.divide"(%80, %82) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %84 = "stablehlo.broadcast_in_dim"(%83) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %85 = "stablehlo.subtract"(%77, %84) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %86 = "stablehlo.multiply"(%85, %85) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %87 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %88 = "stablehlo.reduce"(%86, %87) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg16: tensor<f32>, %arg17: tensor<f32>):
      %131 = "stablehlo.add"(%arg16, %arg17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%131) : (tensor<f32>) -> ()
    }) : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %89 = "stablehlo.broadcast_in_dim"(%88) <{broadcast_dimensions = array<i64: 0>}> : (tensor<16xf32>) -> tensor<16x1xf32>
    %90 = "stablehlo.constant"() <{value = dense<6.400000e+01> : tensor<f32>}> : () -> tensor<f32>
    %91 = "stablehlo.broadcast_in_dim"(%90) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %92 = "stablehlo.divide"(%89, %91) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %93 = "stablehlo.constant"() <{value = dense<9.99999974E-6> : tensor<f32>}> : () -> tensor<f32>
    %94 = "stablehlo.broadcast_in_dim"(%93) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x1xf32>
    %95 = "stablehlo.add"(%92, %94) : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
    %96 = "stablehlo.rsqrt"(%95) : (tensor<16x1xf32>) -> tensor<16x1xf32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<16x1xf32>) -> tensor<16x64xf32>
    %98 = "stablehlo.multiply"(%85, %97) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %99 = "stablehlo.broadcast_in_dim"(%arg11) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %100 = "stablehlo.broadcast_in_dim"(%99) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %101 = "stablehlo.multiply"(%98, %100) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %102 = "stablehlo.broadcast_in_dim"(%arg10) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %103 = "stablehlo.broadcast_in_dim"(%102) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %104 = "stablehlo.add"(%101, %103) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %105 = "stablehlo.dot_general"(%104, %arg12) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x64xf32>, tensor<64x256xf32>) -> tensor<16x256xf32>
    %106 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<256xf32>) -> tensor<1x256xf32>
    %107 = "stablehlo.broadcast_in_dim"(%106) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x256xf32>) -> tensor<16x256xf32>
    %108 = "stablehlo.add"(%105, %107) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %109 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %110 = "stablehlo.broadcast_in_dim"(%109) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %111 = "stablehlo.multiply"(%110, %108) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %112 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %113 = "stablehlo.broadcast_in_dim"(%112) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %114 = "stablehlo.multiply"(%113, %108) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %115 = "stablehlo.multiply"(%114, %108) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %116 = "stablehlo.multiply"(%115, %108) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %117 = "stablehlo.add"(%108, %116) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %118 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %119 = "stablehlo.broadcast_in_dim"(%118) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %120 = "stablehlo.multiply"(%119, %117) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %121 = "stablehlo.tanh"(%120) : (tensor<16x256xf32>) -> tensor<16x256xf32>
    %122 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %123 = "stablehlo.broadcast_in_dim"(%122) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16x256xf32>
    %124 = "stablehlo.add"(%123, %121) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %125 = "stablehlo.multiply"(%111, %124) : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16x256xf32>
    %126 = "stablehlo.dot_general"(%125, %arg14) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<16x256xf32>, tensor<256x64xf32>) -> tensor<16x64xf32>
    %127 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %128 = "stablehlo.broadcast_in_dim"(%127) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<16x64xf32>
    %129 = "stablehlo.add"(%126, %128) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    %130 = "stablehlo.add"(%77, %129) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
    "func.return"(%130) : (tensor<16x64xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<1x16x16xi1>, tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<1x16x16xi1>, %arg1: tensor<4x16x16xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<1x16x16xi1>) -> tensor<4x16x16xi1>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x16x16xf32>
    %3 = "stablehlo.select"(%1, %arg1, %2) : (tensor<4x16x16xi1>, tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
    "func.return"(%3) : (tensor<4x16x16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
