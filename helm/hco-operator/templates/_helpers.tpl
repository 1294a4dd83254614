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
