/*
 * Default locale from the environment, POSIX precedence: LC_ALL, then the category's own variable
 * (LC_MESSAGES for display, LC_CTYPE for formats), then LANG. Read from the environment rather
 * than through setlocale(3), so that asking does not change the C library's locale under the
 * image (the decimal point of strtod and friends).
 *
 * A value has the shape language[_COUNTRY][.codeset][@modifier]. "C", "POSIX" and an empty value
 * mean the JDK's default, en (no country). The modifiers "latin"/"cyrillic" name a script; other
 * modifiers except "euro" become the variant.
 */
#include <stdlib.h>
#include <string.h>

#include "svm_locale.h"

static svm_locale_props_t props;

static const char *locale_value(const char *category) {
  const char *names[] = {"LC_ALL", category, "LANG"};
  for (int i = 0; i < 3; i++) {
    const char *v = getenv(names[i]);
    if (v != NULL && v[0] != '\0') {
      return v;
    }
  }
  return "C";
}

static char *copy(const char *start, size_t length, int *oom) {
  char *s = strndup(start, length);
  if (s == NULL) {
    *oom = 1;
  }
  return s;
}

static void parse(const char *value, char **language, char **script, char **country, char **variant, int *oom) {
  *language = *script = *country = *variant = NULL;
  if (strcmp(value, "C") == 0 || strcmp(value, "POSIX") == 0 || strncmp(value, "C.", 2) == 0) {
    *language = copy("en", 2, oom);
    return;
  }
  size_t lang_len = strcspn(value, "_.@");
  *language = copy(value, lang_len, oom);
  const char *rest = value + lang_len;
  if (*rest == '_') {
    rest++;
    size_t country_len = strcspn(rest, ".@");
    *country = copy(rest, country_len, oom);
    rest += country_len;
  }
  const char *modifier = strchr(rest, '@');
  if (modifier != NULL) {
    modifier++;
    if (strcmp(modifier, "latin") == 0) {
      *script = copy("Latn", 4, oom);
    } else if (strcmp(modifier, "cyrillic") == 0) {
      *script = copy("Cyrl", 4, oom);
    } else if (strcmp(modifier, "euro") != 0 && modifier[0] != '\0') {
      *variant = copy(modifier, strlen(modifier), oom);
    }
  }
}

int svm_initialize_locale(void) {
  int oom = 0;
  parse(locale_value("LC_MESSAGES"), &props.display_language, &props.display_script, &props.display_country,
        &props.display_variant, &oom);
  parse(locale_value("LC_CTYPE"), &props.format_language, &props.format_script, &props.format_country,
        &props.format_variant, &oom);
  return oom ? SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY : SVM_LOCALE_INITIALIZATION_SUCCEEDED;
}

svm_locale_props_t *svm_get_locale(void) { return &props; }
