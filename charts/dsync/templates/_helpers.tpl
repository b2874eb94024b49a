{{- define "dsync.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "dsync.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "dsync.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "dsync.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: serve, operator, process-events. */}}
{{- define "dsync.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dsync.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "dsync.serviceAccountName" -}}
{{- default (include "dsync.fullname" .) .Values.serviceAccount.name -}}
{{- end -}}

{{- define "dsync.image" -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}

{{/* Environment every dsync process shares (read by src/config.ts). */}}
{{- define "dsync.commonEnv" -}}
- name: DSYNC_EXTERNAL_URL
  value: {{ required "externalUrl is required: the base URL identity providers reach dsync on" .Values.externalUrl | quote }}
{{- if .Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.existingSecretKey }}
{{- else }}
- name: REDIS_URL
  value: {{ required "redis.url or redis.existingSecret is required" .Values.redis.url | quote }}
{{- end }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- end -}}

{{- define "dsync.metricsEnv" -}}
- name: METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
{{- end -}}

{{- define "dsync.apiKeysEnv" -}}
- name: DSYNC_API_KEYS
  valueFrom:
    secretKeyRef:
      name: {{ required "apiKeys.existingSecret is required: dsync refuses to run a shared store without API keys" .Values.apiKeys.existingSecret }}
      key: {{ .Values.apiKeys.existingSecretKey }}
{{- end -}}

{{/* A writable /tmp on a read-only root filesystem. */}}
{{- define "dsync.tmpVolume" -}}
- name: tmp
  emptyDir: {}
{{- end -}}
