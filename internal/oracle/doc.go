// Package oracle groups the machines that check gpuisa's facts: finding
// the tools (toolpath), caching their answers by tool version, target and
// input (filecache), llvm-mc (verify), llvm-mca (mca), opt's constant
// folding (llvmfold, and semoracle: the AMD pseudocode against it), NVIDIA's
// ptxas and nvdisasm (ptxas), PTX statements through ptxas (ptxoracle), and
// the kernels that time PTX or check its semantics on a lent GPU (ptxbench,
// semgpu), and the PTX models held to ptxas's constant folding without a
// GPU (ptxfold). Each is its own package; this one holds nothing but this comment.
// The build runs them in batches; serving runs one only where the database
// lacks the verdict, and says so.
package oracle
