// A fixture in the shape of Compiler Explorer's list of instruction-set
// keys (an `as const` array of strings), written for gpuisa's tests: the
// GPU keys Compiler Explorer passes to an assembly-documentation provider,
// and a few others that gpuisa does not answer. Not Compiler Explorer's
// code.
export const InstructionSetsList = [
    'aarch64',
    'amdgpu',
    'amd_cdna1',
    'amd_cdna2',
    'amd_cdna3',
    'amd_cdna4',
    'amd_cdna5',
    'amd_rdna1',
    'amd_rdna2',
    'amd_rdna3',
    'amd_rdna3_5',
    'amd_rdna4',
    'ptx',
    'sass',
    'x86',
] as const;

export type InstructionSet = (typeof InstructionSetsList)[number];
