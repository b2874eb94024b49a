/**
 * The pull providers' slice of the configuration (DSYNC_GOOGLE_*, DSYNC_MICROSOFT_*, the HRIS ones): their variables'
 * zod
 * schemas, joined into config.ts's environment schema, and the options built from the parsed values. Reads no
 * environment itself (config.ts does); reads the certificate file the environment names.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DsyncError } from './core/errors.js';
import { googleOptions, type GoogleOptions } from './providers/google/options.js';
import { parseCertificatePem } from './providers/microsoft/certificate.js';
import { microsoftOptions, type MicrosoftOptions } from './providers/microsoft/options.js';
import { hrisOptions, type HrisOptions } from './providers/hris/options.js';

const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .positive(`${name} must be > 0`);

const share = (name: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?%?$/, `${name} must be a share such as 20% or 0.2`)
    .transform((v) => (v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v)))
    .pipe(z.number().max(1, `${name} must be at most 100%`));

const httpUrl = (name: string) => z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` });

const httpsUrl = (name: string) =>
  z.url({ protocol: /^https$/, error: `${name} must be an https URL (msal-node and Graph accept no other)` });

export const providerEnvShape = {
  DSYNC_GOOGLE_CLIENT_ID: z.string().optional(),
  DSYNC_GOOGLE_CLIENT_SECRET: z.string().optional(),
  DSYNC_GOOGLE_REDIRECT_URL: z.url().optional(),
  DSYNC_GOOGLE_API_URL: z.url({ error: 'DSYNC_GOOGLE_API_URL must be a URL' }).optional(),
  DSYNC_GOOGLE_TOKEN_URL: z.url({ error: 'DSYNC_GOOGLE_TOKEN_URL must be a URL' }).optional(),
  DSYNC_GOOGLE_AUTH_URL: z.url({ error: 'DSYNC_GOOGLE_AUTH_URL must be a URL' }).optional(),
  DSYNC_GOOGLE_SYNC_INTERVAL: positiveInt('DSYNC_GOOGLE_SYNC_INTERVAL').optional(),
  DSYNC_GOOGLE_QUERIES_PER_MINUTE: z.coerce
    .number({ error: 'DSYNC_GOOGLE_QUERIES_PER_MINUTE must be a number' })
    .int('DSYNC_GOOGLE_QUERIES_PER_MINUTE must be an integer')
    .min(0, 'DSYNC_GOOGLE_QUERIES_PER_MINUTE must be >= 0 (0 = not paced)')
    .optional(),
  DSYNC_GOOGLE_MAX_DELETE_SHARE: share('DSYNC_GOOGLE_MAX_DELETE_SHARE').optional(),
  DSYNC_MICROSOFT_CLIENT_ID: z.string().min(1).optional(),
  DSYNC_MICROSOFT_CLIENT_SECRET: z.string().min(1).optional(),
  DSYNC_MICROSOFT_CERTIFICATE_FILE: z.string().min(1).optional(),
  DSYNC_MICROSOFT_AUTHORITY_URL: httpsUrl('DSYNC_MICROSOFT_AUTHORITY_URL').optional(),
  DSYNC_MICROSOFT_GRAPH_URL: httpsUrl('DSYNC_MICROSOFT_GRAPH_URL').optional(),
  DSYNC_MICROSOFT_SYNC_INTERVAL: positiveInt('DSYNC_MICROSOFT_SYNC_INTERVAL').optional(),
  DSYNC_MICROSOFT_MAX_DELETE_SHARE: share('DSYNC_MICROSOFT_MAX_DELETE_SHARE').optional(),
  DSYNC_BAMBOOHR_API_URL: httpUrl('DSYNC_BAMBOOHR_API_URL').optional(),
  DSYNC_HIBOB_API_URL: httpUrl('DSYNC_HIBOB_API_URL').optional(),
  DSYNC_PERSONIO_API_URL: httpUrl('DSYNC_PERSONIO_API_URL').optional(),
  DSYNC_HRIS_SYNC_INTERVAL: positiveInt('DSYNC_HRIS_SYNC_INTERVAL').optional(),
  DSYNC_HRIS_MAX_DELETE_SHARE: share('DSYNC_HRIS_MAX_DELETE_SHARE').optional(),
};

type ProviderEnv = z.infer<z.ZodObject<typeof providerEnvShape>>;

export function providerConfig(
  e: ProviderEnv,
  externalUrl: string,
  configError: (message: string) => DsyncError,
): { google: GoogleOptions; microsoft: MicrosoftOptions; hris: HrisOptions } {
  if ((e.DSYNC_GOOGLE_CLIENT_ID === undefined) !== (e.DSYNC_GOOGLE_CLIENT_SECRET === undefined)) {
    throw configError('set both DSYNC_GOOGLE_CLIENT_ID and DSYNC_GOOGLE_CLIENT_SECRET, or neither');
  }
  const msCredential = [e.DSYNC_MICROSOFT_CLIENT_SECRET, e.DSYNC_MICROSOFT_CERTIFICATE_FILE].filter(
    (v) => v !== undefined,
  ).length;
  if (msCredential > 1)
    throw configError('set DSYNC_MICROSOFT_CLIENT_SECRET or DSYNC_MICROSOFT_CERTIFICATE_FILE, not both');
  if ((e.DSYNC_MICROSOFT_CLIENT_ID === undefined) !== (msCredential === 0)) {
    throw configError(
      'DSYNC_MICROSOFT_CLIENT_ID goes with DSYNC_MICROSOFT_CLIENT_SECRET or DSYNC_MICROSOFT_CERTIFICATE_FILE',
    );
  }
  let certificate;
  if (e.DSYNC_MICROSOFT_CERTIFICATE_FILE !== undefined) {
    try {
      certificate = parseCertificatePem(readFileSync(e.DSYNC_MICROSOFT_CERTIFICATE_FILE, 'utf8'));
    } catch (err) {
      throw configError(
        `DSYNC_MICROSOFT_CERTIFICATE_FILE: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
      );
    }
  }
  return {
    google: googleOptions(externalUrl, {
      clientId: e.DSYNC_GOOGLE_CLIENT_ID,
      clientSecret: e.DSYNC_GOOGLE_CLIENT_SECRET,
      redirectUrl: e.DSYNC_GOOGLE_REDIRECT_URL,
      apiUrl: e.DSYNC_GOOGLE_API_URL,
      tokenUrl: e.DSYNC_GOOGLE_TOKEN_URL,
      authUrl: e.DSYNC_GOOGLE_AUTH_URL,
      syncIntervalSeconds: e.DSYNC_GOOGLE_SYNC_INTERVAL,
      queriesPerMinute: e.DSYNC_GOOGLE_QUERIES_PER_MINUTE,
      maxDeleteShare: e.DSYNC_GOOGLE_MAX_DELETE_SHARE,
    }),
    microsoft: microsoftOptions(externalUrl, {
      clientId: e.DSYNC_MICROSOFT_CLIENT_ID,
      clientSecret: e.DSYNC_MICROSOFT_CLIENT_SECRET,
      certificate,
      authorityUrl: e.DSYNC_MICROSOFT_AUTHORITY_URL?.replace(/\/+$/, ''),
      graphUrl: e.DSYNC_MICROSOFT_GRAPH_URL?.replace(/\/+$/, ''),
      syncIntervalSeconds: e.DSYNC_MICROSOFT_SYNC_INTERVAL,
      maxDeleteShare: e.DSYNC_MICROSOFT_MAX_DELETE_SHARE,
    }),
    hris: hrisOptions({
      apiUrls: {
        ...(e.DSYNC_BAMBOOHR_API_URL && { bamboohr: e.DSYNC_BAMBOOHR_API_URL.replace(/\/+$/, '') }),
        ...(e.DSYNC_HIBOB_API_URL && { hibob: e.DSYNC_HIBOB_API_URL.replace(/\/+$/, '') }),
        ...(e.DSYNC_PERSONIO_API_URL && { personio: e.DSYNC_PERSONIO_API_URL.replace(/\/+$/, '') }),
      } as HrisOptions['apiUrls'],
      syncIntervalSeconds: e.DSYNC_HRIS_SYNC_INTERVAL,
      maxDeleteShare: e.DSYNC_HRIS_MAX_DELETE_SHARE,
    }),
  };
}
