"""Reference implementations that claims (and users) build on: small, readable NumPy/SymPy
versions of Transformer pieces, written for checking rather than speed.

attention and softmax (:mod:`nn`), kernel views of attention (:mod:`kernels`), heads
(:mod:`heads`), tiled attention (:mod:`tiling`), positional encodings (:mod:`positional`),
normalisation (:mod:`norms`), residual Jacobians (:mod:`gradients`), optimisers and schedules
(:mod:`optim`), information measures (:mod:`information`), operation counting (:mod:`flops`),
standardized distributions (:mod:`distributions`) and Metropolis sampling (:mod:`boltzmann`).
"""
