{{- define "hco.labels" -}}
app.kubernetes.io/name: hco-operator
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Values.versions.operator | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
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
