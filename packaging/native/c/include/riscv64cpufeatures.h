/*
 * The RISCV64 CPU feature record (RISCV64LibCHelper.CPUFeatures, one byte per JVMCI CPU feature). Not
 * used on x86_64; the builder resolves every architecture's header while reading its declarations.
 */
#ifndef HCO_RISCV64CPUFEATURES_H
#define HCO_RISCV64CPUFEATURES_H

typedef struct {
  char fI;
  char fM;
  char fA;
  char fF;
  char fD;
  char fC;
  char fV;
} CPUFeatures;

#endif
