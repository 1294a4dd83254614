/*
 * The CPU feature record the image reads at start-up. The builder's AMD64LibCHelper.CPUFeatures
 * (@CStruct) fixes its shape: one byte per JVMCI AMD64.CPUFeature, named "f" + the feature's name.
 * The builder asks the C compiler for each field's offset, so the order here is ours to choose;
 * we keep JVMCI's enum order so that a missing or extra name is easy to spot.
 */
#ifndef HCO_AMD64CPUFEATURES_H
#define HCO_AMD64CPUFEATURES_H

typedef struct {
  char fCX8;
  char fCMOV;
  char fFXSR;
  char fHT;
  char fMMX;
  char fAMD_3DNOW_PREFETCH;
  char fSSE;
  char fSSE2;
  char fSSE3;
  char fSSSE3;
  char fSSE4A;
  char fSSE4_1;
  char fSSE4_2;
  char fPOPCNT;
  char fLZCNT;
  char fTSC;
  char fTSCINV;
  char fTSCINV_BIT;
  char fAVX;
  char fAVX2;
  char fAES;
  char fERMS;
  char fCLMUL;
  char fBMI1;
  char fBMI2;
  char fRTM;
  char fADX;
  char fAVX512F;
  char fAVX512DQ;
  char fAVX512PF;
  char fAVX512ER;
  char fAVX512CD;
  char fAVX512BW;
  char fAVX512VL;
  char fSHA;
  char fFMA;
  char fVZEROUPPER;
  char fAVX512_VPOPCNTDQ;
  char fAVX512_VPCLMULQDQ;
  char fAVX512_VAES;
  char fAVX512_VNNI;
  char fFLUSH;
  char fFLUSHOPT;
  char fCLWB;
  char fAVX512_VBMI2;
  char fAVX512_VBMI;
  char fHV;
  char fSERIALIZE;
  char fRDTSCP;
  char fRDPID;
  char fFSRM;
  char fGFNI;
  char fAVX512_BITALG;
  char fF16C;
  char fPKU;
  char fOSPKE;
  char fCET_IBT;
  char fCET_SS;
  char fAVX512_IFMA;
  char fAVX_IFMA;
  char fAPX_F;
  char fSHA512;
  char fAVX512_FP16;
  char fAVX10_1;
  char fAVX10_2;
} CPUFeatures;

void determineCPUFeatures(CPUFeatures *features);
int checkCPUFeatures(const unsigned char *buildtimeFeatureMask);
int checkCPUFeaturesOrExit(const unsigned char *buildtimeFeatureMask, const char *errorMessage);

#endif
