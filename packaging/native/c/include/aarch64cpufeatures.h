/*
 * The AArch64 CPU feature record (AArch64LibCHelper.CPUFeatures, one byte per JVMCI CPU feature). Not
 * used on x86_64; the builder resolves every architecture's header while reading its declarations.
 */
#ifndef HCO_AARCH64CPUFEATURES_H
#define HCO_AARCH64CPUFEATURES_H

typedef struct {
  char fFP;
  char fASIMD;
  char fEVTSTRM;
  char fAES;
  char fPMULL;
  char fSHA1;
  char fSHA2;
  char fCRC32;
  char fLSE;
  char fDCPOP;
  char fSHA3;
  char fSHA512;
  char fSVE;
  char fSVE2;
  char fSTXR_PREFETCH;
  char fA53MAC;
  char fDMB_ATOMICS;
  char fPACA;
  char fSVEBITPERM;
  char fFPHP;
  char fASIMDHP;
} CPUFeatures;

#endif
