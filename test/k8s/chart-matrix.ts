/** The chart's renders that chart.test.ts applies and chart-render.test.ts reads: the values of each, one a feature. */

/** The alternative to the Redis Cluster case (one store at a time). */
export const SENTINEL_CASE = 'Redis Sentinel with its own auth and TLS';

/** Each must be accepted by the API server as rendered. */
export const MATRIX: Record<string, Record<string, unknown>> = {
  defaults: {},
  'batch mode': {
    'delivery.batchSize': 100,
    'cron.processEvents.enabled': true,
    'delivery.retrySchedule': '5s,1m',
    'delivery.timeout': '10s',
  },
  'Google sync CronJob': {
    'cron.syncGoogle.enabled': true,
    extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'google', key: 'secret' } } }],
  },
  'Microsoft sync CronJob': {
    'cron.syncMicrosoft.enabled': true,
    extraEnv: [
      { name: 'DSYNC_MICROSOFT_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'entra', key: 'secret' } } },
    ],
  },
  'HRIS sync CronJob': { 'cron.syncHris.enabled': true },
  ingress: {
    'ingress.enabled': true,
    'ingress.className': 'nginx',
    'ingress.tls': [{ secretName: 'dsync-tls', hosts: ['dsync.example.com'] }],
  },
  'ServiceMonitor + PrometheusRule': {
    'metrics.serviceMonitor.enabled': true,
    'metrics.prometheusRule.enabled': true,
    'metrics.podMonitor.enabled': true,
    'metrics.dashboard.enabled': true,
  },
  'PDB + HPA, hard anti-affinity': {
    'serve.podDisruptionBudget.enabled': true,
    'operator.podDisruptionBudget.enabled': true,
    'serve.autoscaling.enabled': true,
    'operator.podAntiAffinityPreset': 'hard',
  },
  NetworkPolicy: {
    'networkPolicy.enabled': true,
    'networkPolicy.metricsFrom': [
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ],
  },
  'several watched namespaces': { 'operator.watchNamespaces': ['tenant-a', 'tenant-b'] },
  'external Redis from a Secret, extension points': {
    'redis.existingSecret': 'external-redis',
    'redis.existingSecretKey': 'uri',
    'global.imageRegistry': 'mirror.internal:5000',
    'global.imagePullSecrets': ['mirror-pull'],
    imagePullSecrets: [{ name: 'registry-pull' }],
    fullnameOverride: 'sync',
    podAnnotations: { 'example.com/owner': 'platform' },
    'serve.podLabels': { team: 'identity' },
    extraEnv: [{ name: 'DSYNC_GOOGLE_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: 'google', key: 'secret' } } }],
    extraEnvFrom: [{ configMapRef: { name: 'dsync-extra' } }],
    priorityClassName: 'high',
    'serve.topologySpreadConstraints': [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'serve' } },
      },
    ],
    'operator.affinity': {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 100,
            podAffinityTerm: {
              topologyKey: 'kubernetes.io/hostname',
              labelSelector: { matchLabels: { 'app.kubernetes.io/component': 'operator' } },
            },
          },
        ],
      },
    },
  },
  'Helm-managed CRD': { 'crds.enabled': true },
  'serve only, no ServiceAccount created': { 'operator.enabled': false, 'serviceAccount.create': false },
  'rate limits': {
    'rateLimits.plan': 'growth',
    'rateLimits.environment': 'staging',
    'rateLimits.overrides': 'scim=20/600,default=800/18000',
  },
  'Redis Cluster, ACL user, TLS with a CA, WAIT settings': {
    'redis.existingSecret': '',
    'redis.clusterNodes': ['redis-cluster-0.redis-cluster:6379', 'redis-cluster-1.redis-cluster:6379'],
    'redis.username': 'dsync',
    'redis.passwordSecret': { name: 'dsync-redis-acl', key: 'password' },
    'redis.tls': { enabled: true, caSecret: 'redis-ca' },
    'redis.waitReplicas': 1,
    'redis.minReplicas': 1,
    'redis.waitTimeout': '500ms',
    'cron.syncGoogle.enabled': true,
  },
  [SENTINEL_CASE]: {
    'redis.existingSecret': '',
    'redis.sentinels': ['sentinel-0.sentinel:26379', 'sentinel-1.sentinel:26379', 'sentinel-2.sentinel:26379'],
    'redis.sentinelName': 'dsync',
    'redis.sentinelPasswordSecret': { name: 'sentinel-auth', key: 'password' },
    'redis.tls': { sentinel: true },
    'redis.waitReplicas': 0,
  },
};
