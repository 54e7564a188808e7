;; f32x4-peak.wat — the f32x4 mul+add peak of one core, in WebAssembly SIMD128
;; (no FMA: Emscripten 3.1.6 has no relaxed SIMD, so mul + add is the
;; project's ceiling). 12 independent chains x_j = x_j * a + b, each one f32x4.mul
;; and one f32x4.add per iteration: 12 chains x 4 lanes x 2 flops = 96 flops per
;; iteration. 12 chains + a + b fill 14 of the 16 vector registers V8 has on
;; x86-64 (more chains spill; fewer leave the adders idle). The chains start from
;; different values so that the engine cannot merge them; a and b are
;; parameters, so nothing is folded at compile time.
;;   compiled at bench time: wat2wasm f32x4-peak.wat -o build/bench/f32x4-peak.wasm
;;   (export "mulAdd" (iterations: i32, a: f32, b: f32) -> f32, the sum of the chains)
(module
  (func (export "mulAdd") (param $iterations i32) (param $a f32) (param $b f32) (result f32)
    (local $va v128) (local $vb v128)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128) (local $x4 v128) (local $x5 v128) (local $x6 v128) (local $x7 v128) (local $x8 v128) (local $x9 v128) (local $x10 v128) (local $x11 v128)
    (local.set $va (f32x4.splat (local.get $a)))
    (local.set $vb (f32x4.splat (local.get $b)))
    (local.set $x0 (f32x4.splat (f32.const 1.00)))
    (local.set $x1 (f32x4.splat (f32.const 1.01)))
    (local.set $x2 (f32x4.splat (f32.const 1.02)))
    (local.set $x3 (f32x4.splat (f32.const 1.03)))
    (local.set $x4 (f32x4.splat (f32.const 1.04)))
    (local.set $x5 (f32x4.splat (f32.const 1.05)))
    (local.set $x6 (f32x4.splat (f32.const 1.06)))
    (local.set $x7 (f32x4.splat (f32.const 1.07)))
    (local.set $x8 (f32x4.splat (f32.const 1.08)))
    (local.set $x9 (f32x4.splat (f32.const 1.09)))
    (local.set $x10 (f32x4.splat (f32.const 1.10)))
    (local.set $x11 (f32x4.splat (f32.const 1.11)))
    (block $done
      (br_if $done (i32.eqz (local.get $iterations)))
      (loop $next
        (local.set $x0 (f32x4.add (f32x4.mul (local.get $x0) (local.get $va)) (local.get $vb)))
        (local.set $x1 (f32x4.add (f32x4.mul (local.get $x1) (local.get $va)) (local.get $vb)))
        (local.set $x2 (f32x4.add (f32x4.mul (local.get $x2) (local.get $va)) (local.get $vb)))
        (local.set $x3 (f32x4.add (f32x4.mul (local.get $x3) (local.get $va)) (local.get $vb)))
        (local.set $x4 (f32x4.add (f32x4.mul (local.get $x4) (local.get $va)) (local.get $vb)))
        (local.set $x5 (f32x4.add (f32x4.mul (local.get $x5) (local.get $va)) (local.get $vb)))
        (local.set $x6 (f32x4.add (f32x4.mul (local.get $x6) (local.get $va)) (local.get $vb)))
        (local.set $x7 (f32x4.add (f32x4.mul (local.get $x7) (local.get $va)) (local.get $vb)))
        (local.set $x8 (f32x4.add (f32x4.mul (local.get $x8) (local.get $va)) (local.get $vb)))
        (local.set $x9 (f32x4.add (f32x4.mul (local.get $x9) (local.get $va)) (local.get $vb)))
        (local.set $x10 (f32x4.add (f32x4.mul (local.get $x10) (local.get $va)) (local.get $vb)))
        (local.set $x11 (f32x4.add (f32x4.mul (local.get $x11) (local.get $va)) (local.get $vb)))
        (br_if $next (local.tee $iterations (i32.sub (local.get $iterations) (i32.const 1))))))
    ;; the sum of the chains, so that none of them is dead code
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x1)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x2)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x3)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x4)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x5)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x6)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x7)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x8)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x9)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x10)))
    (local.set $x0 (f32x4.add (local.get $x0) (local.get $x11)))
    (f32.add (f32.add (f32x4.extract_lane 0 (local.get $x0)) (f32x4.extract_lane 1 (local.get $x0)))
             (f32.add (f32x4.extract_lane 2 (local.get $x0)) (f32x4.extract_lane 3 (local.get $x0))))))
