/*
 * The process's default locale, as the image's LocaleCHelper (@CStruct "svm_locale_props_t",
 * @CConstant and @CFunction declarations) reads it: the display locale follows LC_MESSAGES, the
 * format locale LC_CTYPE, as the JDK's launcher does.
 */
#ifndef HCO_SVM_LOCALE_H
#define HCO_SVM_LOCALE_H

#define SVM_LOCALE_INITIALIZATION_SUCCEEDED 0
#define SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY 1

typedef struct {
  char *display_language;
  char *display_script;
  char *display_country;
  char *display_variant;
  char *format_language;
  char *format_script;
  char *format_country;
  char *format_variant;
} svm_locale_props_t;

int svm_initialize_locale(void);
svm_locale_props_t *svm_get_locale(void);

#endif
