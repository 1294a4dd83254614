{{- /* every object: Kubernetes' recommended labels, the version being the chart's appVersion */ -}}
{{- define "hco.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "hco.podLabels" . }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- /* the pods: no chart label, so that a chart-only change does not restart them */ -}}
{{- define "hco.podLabels" -}}
{{ include "hco.selector" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: hco-operator
{{- end }}

{{- define "hco.selector" -}}
app.kubernetes.io/name: hco-operator
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "hco.tlsSecret" -}}
{{- if eq .Values.metrics.tls.mode "secret" }}{{ .Values.metrics.tls.secretName }}{{ else }}hco-operator-metrics-tls{{ end }}
{{- end }}

{{- define "hco.scheme" -}}
{{- if eq .Values.metrics.tls.mode "none" }}HTTP{{ else }}HTTPS{{ end }}
{{- end }}

{{- /* how Prometheus reaches the management port: https, verifying the serving certificate */ -}}
{{- define "hco.scrapeTls" -}}
{{- if ne .Values.metrics.tls.mode "none" }}
scheme: https
tlsConfig:
  serverName: {{ printf "hco-operator-metrics.%s.svc" .Release.Namespace }}
  ca:
    secret:
      name: {{ include "hco.tlsSecret" . }}
      key: {{ if eq .Values.metrics.tls.mode "selfSigned" }}tls.crt{{ else }}ca.crt{{ end }}
{{- end }}
{{- end }}

{{- /* with metrics auth on, Prometheus presents the scraper ServiceAccount's token (its Secret) */ -}}
{{- define "hco.scrapeAuth" -}}
{{- if .Values.metrics.auth }}
authorization:
  type: Bearer
  credentials:
    name: hco-operator-metrics-scraper-token
    key: token
{{- end }}
{{- end }}

{{- /* the release file (files/release.yaml) and how each component operator is deployed */ -}}
{{- define "hco.release" -}}
{{- .Files.Get "files/release.yaml" -}}
{{- end }}

{{- define "hco.componentOperators" -}}
{{- .Files.Get "files/component-operators.yaml" -}}
{{- end }}

{{- /*
Whether a component is part of this stack: (list $ key). enabled true/false, or auto: on where the
cluster serves what it needs (SSP: OpenShift's template.openshift.io/v1). "true" or "".
*/ -}}
{{- define "hco.componentEnabled" -}}
{{- $root := index . 0 }}{{- $key := index . 1 }}
{{- $op := index (include "hco.componentOperators" $root | fromYaml) $key }}
{{- $setting := (index $root.Values.components $key).enabled }}
{{- if eq (toString $setting) "auto" }}
{{- if or (not $op.requiresApi) ($root.Capabilities.APIVersions.Has (toString $op.requiresApi)) }}true{{ end }}
{{- else if $setting }}true{{ end }}
{{- end }}

{{- /* the version of a component: the values' override, else the release file's */ -}}
{{- define "hco.componentVersion" -}}
{{- $root := index . 0 }}{{- $key := index . 1 }}
{{- $release := include "hco.release" $root | fromYaml }}
{{- (index $root.Values.components $key).version | default (index $release.components $key).version }}
{{- end }}

{{- define "hco.componentImage" -}}
{{- $root := index . 0 }}{{- $key := index . 1 }}
{{- $release := include "hco.release" $root | fromYaml }}
{{- (index $root.Values.components $key).image | default (index $release.components $key).image }}
{{- end }}

{{- define "hco.componentLabels" -}}
{{- $root := index . 0 }}{{- $op := index . 1 }}
{{- range $k, $v := $op.selector }}
{{ $k }}: {{ $v | quote }}
{{- end }}
{{ include "hco.componentRecommendedLabels" . }}
{{- end }}

{{- define "hco.componentRecommendedLabels" -}}
{{- $root := index . 0 }}{{- $op := index . 1 -}}
app.kubernetes.io/component: {{ $op.component }}
app.kubernetes.io/part-of: hco-operator
app.kubernetes.io/instance: {{ $root.Release.Name }}
{{- end }}

{{/*
The conversion webhook's certificates, generated once per render (every template that needs them
gets the same ones) and kept across upgrades: an existing Secret's are reused.
*/}}
{{- define "hco.webhookSecret" -}}
{{- if eq .Values.conversionWebhook.certificates "secret" }}{{ .Values.conversionWebhook.secretName }}{{ else }}hco-operator-webhook-tls{{ end }}
{{- end }}

{{- define "hco.webhookCerts" -}}
{{- if not (hasKey .Values "_webhookCerts") }}
{{- $name := include "hco.webhookSecret" . }}
{{- $existing := lookup "v1" "Secret" .Release.Namespace $name }}
{{- if and $existing $existing.data (hasKey $existing.data "ca.crt") }}
{{- $_ := set .Values "_webhookCerts" (dict "crt" (index $existing.data "tls.crt") "key" (index $existing.data "tls.key") "ca" (index $existing.data "ca.crt")) }}
{{- else }}
{{- $service := printf "hco-operator-webhook.%s.svc" .Release.Namespace }}
{{- $ca := genCA "hco-operator-webhook-ca" 3650 }}
{{- $cert := genSignedCert $service nil (list "hco-operator-webhook" (printf "hco-operator-webhook.%s" .Release.Namespace) $service (printf "%s.cluster.local" $service)) 3650 $ca }}
{{- $_ := set .Values "_webhookCerts" (dict "crt" ($cert.Cert | b64enc) "key" ($cert.Key | b64enc) "ca" ($ca.Cert | b64enc)) }}
{{- end }}
{{- end }}
{{- end }}
