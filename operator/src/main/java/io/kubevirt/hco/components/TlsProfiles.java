package io.kubevirt.hco.components;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.kubevirt.hco.api.v1beta1.TlsSecurityProfile;

/**
 * OpenShift's predefined TLS profiles (ciphers in OpenSSL names, minimum version) and the IANA
 * names KubeVirt's tlsConfiguration takes. Ciphers Go's TLS stack does not implement have no IANA
 * entry here and are left out, as upstream's conversion leaves them out.
 */
final class TlsProfiles {

    private static final List<String> INTERMEDIATE = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
            "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-ECDSA-CHACHA20-POLY1305",
            "ECDHE-RSA-CHACHA20-POLY1305", "DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384");

    private static final List<String> OLD;
    static {
        List<String> old = new ArrayList<>(INTERMEDIATE);
        old.addAll(List.of("DHE-RSA-CHACHA20-POLY1305", "ECDHE-ECDSA-AES128-SHA256", "ECDHE-RSA-AES128-SHA256",
                "ECDHE-ECDSA-AES128-SHA", "ECDHE-RSA-AES128-SHA", "ECDHE-ECDSA-AES256-SHA384", "ECDHE-RSA-AES256-SHA384",
                "ECDHE-ECDSA-AES256-SHA", "ECDHE-RSA-AES256-SHA", "DHE-RSA-AES128-SHA256", "DHE-RSA-AES256-SHA256",
                "AES128-GCM-SHA256", "AES256-GCM-SHA384", "AES128-SHA256", "AES256-SHA256", "AES128-SHA", "AES256-SHA",
                "DES-CBC3-SHA"));
        OLD = List.copyOf(old);
    }

    private static final Map<String, String> IANA = Map.ofEntries(
            Map.entry("TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256"),
            Map.entry("TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384"),
            Map.entry("TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"),
            Map.entry("ECDHE-ECDSA-AES128-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("ECDHE-RSA-AES128-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA"),
            Map.entry("ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA"),
            Map.entry("ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA"),
            Map.entry("ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA"),
            Map.entry("AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256"),
            Map.entry("AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384"),
            Map.entry("AES128-SHA256", "TLS_RSA_WITH_AES_128_CBC_SHA256"),
            Map.entry("AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"),
            Map.entry("AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA"),
            Map.entry("DES-CBC3-SHA", "TLS_RSA_WITH_3DES_EDE_CBC_SHA"));

    private TlsProfiles() {
    }

    /** The profile in force: the user's, or Intermediate (upstream's choice on vanilla Kubernetes). */
    static TlsSecurityProfile effective(TlsSecurityProfile profile) {
        return profile == null || profile.type == null ? TlsSecurityProfile.intermediate() : profile;
    }

    /** The profile as CDI, the network add-ons and SSP take it (OpenShift's own shape). */
    static Map<String, Object> asProfile(TlsSecurityProfile profile) {
        return SpecJson.toMap(effective(profile));
    }

    /** KubeVirt's tlsConfiguration: minimum version and IANA cipher names (none for Modern: TLS 1.3 ciphers are not configurable). */
    static Map<String, Object> kubevirt(TlsSecurityProfile profile) {
        TlsSecurityProfile p = effective(profile);
        List<String> openssl;
        String minVersion;
        switch (p.type) {
            case Old -> {
                openssl = OLD;
                minVersion = "VersionTLS10";
            }
            case Modern -> {
                openssl = List.of();
                minVersion = "VersionTLS13";
            }
            case Custom -> {
                openssl = p.custom == null || p.custom.ciphers == null ? List.of() : p.custom.ciphers;
                minVersion = p.custom == null || p.custom.minTLSVersion == null ? "VersionTLS12"
                        : p.custom.minTLSVersion.name();
            }
            default -> {
                openssl = INTERMEDIATE;
                minVersion = "VersionTLS12";
            }
        }
        List<String> iana = openssl.stream().map(IANA::get).filter(java.util.Objects::nonNull).toList();
        return Fields.object().put("minTLSVersion", minVersion).put("ciphers", iana).map();
    }
}
