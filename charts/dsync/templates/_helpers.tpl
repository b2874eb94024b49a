{{- define "dsync.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "dsync.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Cluster-scoped objects carry the release namespace too: a release of the same name elsewhere must not clash. */}}
{{- define "dsync.clusterName" -}}
{{- printf "%s-%s" (include "dsync.fullname" .) .Release.Namespace | trunc 200 | trimSuffix "-" -}}
{{- end -}}

{{- define "dsync.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "dsync.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: dsync
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Labels of one component's objects: (dict "root" $ "component" "serve"). */}}
{{- define "dsync.componentLabels" -}}
{{ include "dsync.labels" .root }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Selector labels of one component: serve, operator, process-events. */}}
{{- define "dsync.selectorLabels" -}}
app.kubernetes.io/name: {{ include "dsync.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Selector of every long-running dsync pod of the release (serve and operator expose metrics). */}}
{{- define "dsync.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "dsync.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "dsync.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "dsync.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* registry/repository:tag or @digest; global.imageRegistry wins over image.registry. */}}
{{- define "dsync.image" -}}
{{- $registry := default .Values.image.registry .Values.global.imageRegistry -}}
{{- $ref := .Values.image.repository -}}
{{- if $registry }}{{ $ref = printf "%s/%s" (trimSuffix "/" $registry) $ref }}{{ end -}}
{{- if .Values.image.digest -}}
{{ $ref }}@{{ .Values.image.digest }}
{{- else -}}
{{ $ref }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}
{{- end -}}

{{/*
Pod metadata and the spec fields every dsync pod shares:
(dict "root" $ "component" "serve" "values" .Values.serve "spread" (pick .Values.serve "podAntiAffinityPreset" "topologySpreadConstraints")),
"spread" given by the Deployments alone (a CronJob runs one pod).
*/}}
{{- define "dsync.podMetadata" -}}
{{- $annotations := merge (dict) (.values.podAnnotations | default dict) (.root.Values.podAnnotations | default dict) }}
{{- with $annotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
labels:
  {{- include "dsync.selectorLabels" (dict "root" .root "component" .component) | nindent 2 }}
  {{- with .root.Values.commonLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- with merge (dict) (.values.podLabels | default dict) (.root.Values.podLabels | default dict) }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end -}}

{{- define "dsync.podSpecCommon" -}}
{{- $pullSecrets := list }}
{{- /* global.imagePullSecrets may name Secrets as plain strings, the way many charts take them */}}
{{- range concat (.root.Values.global.imagePullSecrets | default list) (.root.Values.imagePullSecrets | default list) }}
{{- $pullSecrets = append $pullSecrets (ternary (dict "name" .) . (kindIs "string" .)) }}
{{- end }}
{{- with $pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.values.priorityClassName | default .root.Values.priorityClassName) }}
priorityClassName: {{ . }}
{{- end }}
securityContext:
  {{- toYaml .root.Values.podSecurityContext | nindent 2 }}
{{- /* The chart-wide scheduling values, then the component's: its nodeSelector keys win, tolerations add up. */}}
{{- with merge (dict) (.values.nodeSelector | default dict) (.root.Values.nodeSelector | default dict) }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with concat (.root.Values.tolerations | default list) (.values.tolerations | default list) }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- /*
A component's affinity replaces the chart-wide one. A Deployment's replicas spread over nodes by its
podAntiAffinityPreset (given as .spread), unless the affinity in force has its own podAntiAffinity.
*/}}
{{- $affinity := .values.affinity | default (deepCopy (.root.Values.affinity | default dict)) }}
{{- $preset := (.spread | default dict).podAntiAffinityPreset }}
{{- if and $preset (not .values.affinity) (not (hasKey $affinity "podAntiAffinity")) }}
{{- $term := dict "topologyKey" "kubernetes.io/hostname" "labelSelector" (dict "matchLabels" (include "dsync.selectorLabels" . | fromYaml)) }}
{{- if eq $preset "hard" }}
{{- $_ := set $affinity "podAntiAffinity" (dict "requiredDuringSchedulingIgnoredDuringExecution" (list $term)) }}
{{- else }}
{{- $_ := set $affinity "podAntiAffinity" (dict "preferredDuringSchedulingIgnoredDuringExecution" (list (dict "weight" 100 "podAffinityTerm" $term))) }}
{{- end }}
{{- end }}
{{- with $affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with (.spread | default dict).topologySpreadConstraints }}
topologySpreadConstraints:
  {{- tpl (toYaml .) $.root | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Environment every dsync process shares (read by src/config.ts). */}}
{{- define "dsync.commonEnv" -}}
- name: DSYNC_EXTERNAL_URL
  value: {{ required "externalUrl is required: the base URL identity providers reach dsync on" .Values.externalUrl | quote }}
{{- include "dsync.redisEnv" . }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
{{- end -}}

{{/* Webhook delivery settings and serve.env: `dsync serve` and the process-events CronJob deliver alike. */}}
{{- define "dsync.deliveryEnv" -}}
{{- $d := .Values.delivery }}
{{- if gt (int $d.batchSize) 0 }}
- name: DSYNC_WEBHOOK_BATCH_SIZE
  value: {{ $d.batchSize | quote }}
{{- end }}
- name: DSYNC_WEBHOOK_ALLOW_PRIVATE
  value: {{ $d.allowPrivate | quote }}
{{- if gt (int $d.concurrency) 0 }}
- name: DSYNC_WEBHOOK_CONCURRENCY
  value: {{ $d.concurrency | quote }}
{{- end }}
{{- range $name, $key := dict "DSYNC_WEBHOOK_ORDERING" "ordering" "DSYNC_WEBHOOK_RETRY_SCHEDULE" "retrySchedule" "DSYNC_WEBHOOK_TIMEOUT" "timeout" "DSYNC_EVENT_RETENTION" "eventRetention" "DSYNC_WEBHOOK_LOG_RETENTION" "logRetention" "DSYNC_DELIVERY_LEASE" "lease" }}
{{- with index $d $key }}
- name: {{ $name }}
  value: {{ . | quote }}
{{- end }}
{{- end }}
{{- range $name, $value := .Values.serve.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* serve's project rate limits (DSYNC_RATE_LIMIT_*); nothing when no plan is set (limits off). */}}
{{- define "dsync.rateLimitEnv" -}}
{{- $r := .Values.rateLimits }}
{{- if and $r.overrides (not $r.plan) }}
{{- fail "rateLimits.overrides needs rateLimits.plan: the overrides change that plan's preset" }}
{{- end }}
{{- if $r.plan }}
- name: DSYNC_RATE_LIMIT_PLAN
  value: {{ $r.plan | quote }}
- name: DSYNC_RATE_LIMIT_ENV
  value: {{ $r.environment | quote }}
{{- with $r.overrides }}
- name: DSYNC_RATE_LIMIT_OVERRIDES
  value: {{ . | quote }}
{{- end }}
{{- end }}
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

{{/* The user's additions, last so they can override: (dict "root" $ "values" .Values.serve). */}}
{{- define "dsync.extraEnv" -}}
{{- with concat (.root.Values.extraEnv | default list) (.values.extraEnv | default list) }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "dsync.extraEnvFrom" -}}
{{- with .Values.extraEnvFrom }}
envFrom:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A writable /tmp on a read-only root filesystem. */}}
{{/*
The store (src/config.ts): one server (redis.url or a Secret holding it), a Redis Cluster (redis.clusterNodes) or
a master behind Sentinel (redis.sentinels + redis.sentinelName); the ACL user, TLS and WAIT durability.
*/}}
{{- define "dsync.redisEnv" -}}
{{- $r := .Values.redis }}
{{- $server := or $r.url $r.existingSecret }}
{{- if gt (add (ternary 1 0 (not (empty $server))) (ternary 1 0 (not (empty $r.clusterNodes))) (ternary 1 0 (not (empty $r.sentinels)))) 1 }}
{{- fail "set one of redis.url / redis.existingSecret, redis.clusterNodes or redis.sentinels" }}
{{- end }}
{{- if and $server (or $r.username $r.passwordSecret.name $r.tls.enabled) }}
{{- fail "redis.username, redis.passwordSecret and redis.tls.enabled are for redis.clusterNodes and redis.sentinels; with one server put them in the URL (rediss://user:password@host:port)" }}
{{- end }}
{{- if $r.clusterNodes }}
- name: REDIS_CLUSTER_NODES
  value: {{ join "," $r.clusterNodes | quote }}
{{- else if $r.sentinels }}
- name: REDIS_SENTINELS
  value: {{ join "," $r.sentinels | quote }}
- name: REDIS_SENTINEL_NAME
  value: {{ required "redis.sentinelName is required with redis.sentinels: the master name the Sentinels monitor" $r.sentinelName | quote }}
{{- else if $r.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ $r.existingSecret }}
      key: {{ $r.existingSecretKey }}
{{- else }}
- name: REDIS_URL
  value: {{ required "redis.url, redis.existingSecret, redis.clusterNodes or redis.sentinels is required" $r.url | quote }}
{{- end }}
{{- with $r.username }}
- name: REDIS_USERNAME
  value: {{ . | quote }}
{{- end }}
{{- with $r.passwordSecret.name }}
- name: REDIS_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ . }}, key: {{ $r.passwordSecret.key }} }
{{- end }}
{{- if $r.tls.enabled }}
- name: REDIS_TLS
  value: "true"
{{- end }}
{{- with $r.tls.caSecret }}
- name: REDIS_TLS_CA_FILE
  value: /etc/dsync/redis-ca/{{ $r.tls.caSecretKey }}
{{- end }}
{{- if $r.sentinels }}
{{- with $r.sentinelUsername }}
- name: REDIS_SENTINEL_USERNAME
  value: {{ . | quote }}
{{- end }}
{{- with $r.sentinelPasswordSecret.name }}
- name: REDIS_SENTINEL_PASSWORD
  valueFrom:
    secretKeyRef: { name: {{ . }}, key: {{ $r.sentinelPasswordSecret.key }} }
{{- end }}
{{- if $r.tls.sentinel }}
- name: REDIS_SENTINEL_TLS
  value: "true"
{{- end }}
{{- end }}
{{- if not (kindIs "invalid" $r.waitReplicas) }}
- name: DSYNC_REDIS_WAIT_REPLICAS
  value: {{ $r.waitReplicas | quote }}
{{- end }}
{{- if not (kindIs "invalid" $r.minReplicas) }}
- name: DSYNC_REDIS_MIN_REPLICAS
  value: {{ $r.minReplicas | quote }}
{{- end }}
{{- with $r.waitTimeout }}
- name: DSYNC_REDIS_WAIT_TIMEOUT
  value: {{ . | quote }}
{{- end }}
{{- end -}}

{{/* The CA of the Redis nodes (redis.tls.caSecret), mounted where REDIS_TLS_CA_FILE points. */}}
{{- define "dsync.redisCaVolume" -}}
{{- with .Values.redis.tls.caSecret }}
- name: redis-ca
  secret: { secretName: {{ . }} }
{{- end }}
{{- end -}}
{{- define "dsync.redisCaMount" -}}
{{- if .Values.redis.tls.caSecret }}
- { name: redis-ca, mountPath: /etc/dsync/redis-ca, readOnly: true }
{{- end }}
{{- end -}}

{{- define "dsync.tmpVolume" -}}
- name: tmp
  emptyDir: {}
{{- end -}}

{{/* Namespaces the operator watches; empty = all. */}}
{{- define "dsync.watchNamespaces" -}}
{{- join "," (.Values.operator.watchNamespaces | default list | uniq) -}}
{{- end -}}

{{- define "dsync.metricsServiceEnabled" -}}
{{- if or .Values.metrics.service.enabled .Values.metrics.serviceMonitor.enabled }}true{{ end -}}
{{- end -}}
