/*
 * CPU feature query for the native image's start-up check and its run-time feature checks.
 *
 * Bits are read with CPUID (leaf numbers and bit positions from the Intel SDM, vol. 2A, and AMD's
 * APM, vol. 3). A feature whose register state the OS does not save (XCR0, read with XGETBV) is
 * reported absent: under-reporting only costs a faster code path, over-reporting would let the
 * image execute an instruction that faults.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd64cpufeatures.h"

#define BIT(reg, n) (((reg) >> (n)) & 1u)

/* XCR0 components: SSE (1), AVX (2), AVX-512 opmask/ZMM_Hi256/Hi16_ZMM (5,6,7), APX (19). */
#define XCR0_AVX_STATE 0x6u
#define XCR0_AVX512_STATE 0xE6u
#define XCR0_APX_STATE (1u << 19)

static uint64_t read_xcr0(void) {
  uint32_t eax, edx;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return ((uint64_t)edx << 32) | eax;
}

void determineCPUFeatures(CPUFeatures *f) {
  unsigned int eax, ebx, ecx, edx;
  unsigned int max_leaf = __get_cpuid_max(0, NULL);
  unsigned int max_ext = __get_cpuid_max(0x80000000u, NULL);

  unsigned int l1_ecx = 0, l1_edx = 0;
  unsigned int l7_ebx = 0, l7_ecx = 0, l7_edx = 0, l71_eax = 0, l71_edx = 0;
  unsigned int e1_ecx = 0, e1_edx = 0, e7_edx = 0;

  if (max_leaf >= 1) {
    __cpuid(1, eax, ebx, l1_ecx, l1_edx);
  }
  if (max_leaf >= 7) {
    __cpuid_count(7, 0, eax, l7_ebx, l7_ecx, l7_edx);
    if (eax >= 1) {
      __cpuid_count(7, 1, l71_eax, ebx, ecx, l71_edx);
    }
  }
  if (max_ext >= 0x80000001u) {
    __cpuid(0x80000001u, eax, ebx, e1_ecx, e1_edx);
  }
  if (max_ext >= 0x80000007u) {
    __cpuid(0x80000007u, eax, ebx, ecx, e7_edx);
  }

  uint64_t xcr0 = BIT(l1_ecx, 27) ? read_xcr0() : 0; /* OSXSAVE */
  int os_avx = (xcr0 & XCR0_AVX_STATE) == XCR0_AVX_STATE;
  int os_avx512 = (xcr0 & XCR0_AVX512_STATE) == XCR0_AVX512_STATE;
  int os_apx = (xcr0 & XCR0_APX_STATE) != 0;

  /* leaf 1, EDX */
  f->fTSC = BIT(l1_edx, 4);
  f->fCX8 = BIT(l1_edx, 8);
  f->fCMOV = BIT(l1_edx, 15);
  f->fFLUSH = BIT(l1_edx, 19);
  f->fMMX = BIT(l1_edx, 23);
  f->fFXSR = BIT(l1_edx, 24);
  f->fSSE = BIT(l1_edx, 25);
  f->fSSE2 = BIT(l1_edx, 26);
  f->fHT = BIT(l1_edx, 28);
  /* leaf 1, ECX */
  f->fSSE3 = BIT(l1_ecx, 0);
  f->fCLMUL = BIT(l1_ecx, 1);
  f->fSSSE3 = BIT(l1_ecx, 9);
  f->fSSE4_1 = BIT(l1_ecx, 19);
  f->fSSE4_2 = BIT(l1_ecx, 20);
  f->fPOPCNT = BIT(l1_ecx, 23);
  f->fAES = BIT(l1_ecx, 25);
  f->fHV = BIT(l1_ecx, 31);
  if (os_avx) {
    f->fAVX = BIT(l1_ecx, 28);
    f->fFMA = BIT(l1_ecx, 12);
    f->fF16C = BIT(l1_ecx, 29);
    f->fVZEROUPPER = f->fAVX;
  }
  /* leaf 7.0, EBX */
  f->fBMI1 = BIT(l7_ebx, 3);
  f->fBMI2 = BIT(l7_ebx, 8);
  f->fERMS = BIT(l7_ebx, 9);
  f->fRTM = BIT(l7_ebx, 11);
  f->fADX = BIT(l7_ebx, 19);
  f->fFLUSHOPT = BIT(l7_ebx, 23);
  f->fCLWB = BIT(l7_ebx, 24);
  f->fSHA = BIT(l7_ebx, 29);
  if (os_avx) {
    f->fAVX2 = BIT(l7_ebx, 5);
    f->fAVX_IFMA = BIT(l71_eax, 23);
    f->fSHA512 = BIT(l71_eax, 0);
  }
  if (os_avx512) {
    f->fAVX512F = BIT(l7_ebx, 16);
    f->fAVX512DQ = BIT(l7_ebx, 17);
    f->fAVX512_IFMA = BIT(l7_ebx, 21);
    f->fAVX512PF = BIT(l7_ebx, 26);
    f->fAVX512ER = BIT(l7_ebx, 27);
    f->fAVX512CD = BIT(l7_ebx, 28);
    f->fAVX512BW = BIT(l7_ebx, 30);
    f->fAVX512VL = BIT(l7_ebx, 31);
    f->fAVX512_VBMI = BIT(l7_ecx, 1);
    f->fAVX512_VBMI2 = BIT(l7_ecx, 6);
    f->fAVX512_VNNI = BIT(l7_ecx, 11);
    f->fAVX512_BITALG = BIT(l7_ecx, 12);
    f->fAVX512_VPOPCNTDQ = BIT(l7_ecx, 14);
    f->fAVX512_FP16 = BIT(l7_edx, 23);
    if (BIT(l7_ecx, 9)) f->fAVX512_VAES = f->fAVX512F;
    if (BIT(l7_ecx, 10)) f->fAVX512_VPCLMULQDQ = f->fAVX512F;
    if (BIT(l71_edx, 19) && max_leaf >= 0x24) {
      __cpuid_count(0x24, 0, eax, ebx, ecx, edx);
      unsigned int version = ebx & 0xffu;
      f->fAVX10_1 = version >= 1;
      f->fAVX10_2 = version >= 2;
    }
  }
  /* leaf 7.0, ECX / EDX */
  f->fPKU = BIT(l7_ecx, 3);
  f->fOSPKE = BIT(l7_ecx, 4);
  f->fCET_SS = BIT(l7_ecx, 7);
  f->fGFNI = BIT(l7_ecx, 8);
  f->fRDPID = BIT(l7_ecx, 22);
  f->fFSRM = BIT(l7_edx, 4);
  f->fSERIALIZE = BIT(l7_edx, 14);
  f->fCET_IBT = BIT(l7_edx, 20);
  f->fAPX_F = os_apx && BIT(l71_edx, 21);
  /* extended leaves */
  f->fLZCNT = BIT(e1_ecx, 5);
  f->fSSE4A = BIT(e1_ecx, 6);
  f->fAMD_3DNOW_PREFETCH = BIT(e1_ecx, 8) || BIT(e1_edx, 31);
  f->fRDTSCP = BIT(e1_edx, 27);
  f->fTSCINV_BIT = BIT(e7_edx, 8);
  f->fTSCINV = f->fTSCINV_BIT;
}

/*
 * The mask is the build-time feature record, bitwise negated and padded with 1s to a multiple of
 * 8 bytes: every required feature is a byte 0xFE, everything else 0xFF. The host satisfies it when
 * OR-ing its own record (bytes 0 or 1) gives all ones.
 */
int checkCPUFeatures(const unsigned char *mask) {
  enum { WORDS = (sizeof(CPUFeatures) + 7) / 8 };
  uint64_t host[WORDS];
  memset(host, 0, sizeof(host));
  determineCPUFeatures((CPUFeatures *)host);
  for (int i = 0; i < WORDS; i++) {
    uint64_t required;
    memcpy(&required, mask + 8 * i, sizeof(required));
    if ((host[i] | required) != UINT64_MAX) {
      return 1;
    }
  }
  return 0;
}

int checkCPUFeaturesOrExit(const unsigned char *mask, const char *errorMessage) {
  int result = checkCPUFeatures(mask);
  if (result != 0) {
    fputs(errorMessage, stderr);
    fputc('\n', stderr);
    exit(1);
  }
  return result;
}
