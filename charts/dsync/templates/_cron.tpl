{{/*
A one-shot dsync CronJob: (dict "root" $ "component" "<name>" "values" .Values.cron.<job> "args" (list ...)).
It runs with serve's store and delivery settings and without API keys (a job serves no API).
*/}}
{{- define "dsync.cronJob" -}}
{{- $root := .root }}
{{- $v := .values }}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ include "dsync.fullname" $root }}-{{ .component }}
  labels:
    {{- include "dsync.componentLabels" . | nindent 4 }}
spec:
  schedule: {{ $v.schedule | quote }}
  # One run at a time; a late run is skipped rather than stacked.
  concurrencyPolicy: Forbid
  startingDeadlineSeconds: {{ $v.startingDeadlineSeconds }}
  successfulJobsHistoryLimit: {{ $v.successfulJobsHistoryLimit }}
  failedJobsHistoryLimit: {{ $v.failedJobsHistoryLimit }}
  jobTemplate:
    spec:
      backoffLimit: {{ $v.backoffLimit }}
      activeDeadlineSeconds: {{ $v.activeDeadlineSeconds }}
      template:
        metadata:
          {{- include "dsync.podMetadata" . | nindent 10 }}
        spec:
          restartPolicy: Never
          automountServiceAccountToken: false
          {{- include "dsync.podSpecCommon" . | nindent 10 }}
          containers:
            - name: {{ .component }}
              image: {{ include "dsync.image" $root }}
              imagePullPolicy: {{ $root.Values.image.pullPolicy }}
              args: {{ toJson .args }}
              env:
                {{- include "dsync.commonEnv" $root | nindent 16 }}
                {{- include "dsync.deliveryEnv" $root | nindent 16 }}
                - name: METRICS_PORT # a one-shot job exposes no metrics
                  value: "0"
                {{- include "dsync.extraEnv" . | nindent 16 }}
              {{- include "dsync.extraEnvFrom" $root | nindent 14 }}
              securityContext:
                {{- toYaml $root.Values.securityContext | nindent 16 }}
              resources:
                {{- toYaml $v.resources | nindent 16 }}
              volumeMounts:
                - { name: tmp, mountPath: /tmp }
                {{- include "dsync.redisCaMount" $root | nindent 16 }}
          volumes:
            {{- include "dsync.tmpVolume" $root | nindent 12 }}
            {{- include "dsync.redisCaVolume" $root | nindent 12 }}
{{- end -}}
