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
