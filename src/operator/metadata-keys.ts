/**
 * Every label, annotation and finalizer the operator sets or reads, in one place: the constants the reconcile
 * steps use, and the table docs/reference/operator-metadata.md is generated from
 * (scripts/docs/reference/operator-metadata.ts). A key used anywhere else in src/operator fails a test.
 */

/** Set on the DirectoryConnection to any new value to issue a new SCIM token. */
export const ROTATE_ANNOTATION = 'dsync.io/rotate-token';
/** On the Secret: the last rotate-token value handled, so a value rotates once. */
export const ROTATED_ANNOTATION = 'dsync.io/rotated-token';
/** Set on the DirectoryConnection to any new value to resume webhook delivery stopped by a 410 Gone. */
export const REENABLE_WEBHOOK_ANNOTATION = 'dsync.io/reenable-webhook';
/** On the Secret: the last reenable-webhook value handled, so a value re-enables once. */
export const REENABLED_WEBHOOK_ANNOTATION = 'dsync.io/reenabled-webhook';
/**
 * Holds the SCIM Secret (and, for resources made before it moved there or while their Secret is replaced, the
 * resource) until the stored directory is deleted.
 */
export const FINALIZER = 'dsync.io/finalizer';
/**
 * On the Secret: the stored directory it guards (the owner's uid), known even after an orphaning delete dropped the
 * ownerReference.
 */
export const DIRECTORY_ID_ANNOTATION = 'dsync.io/directory-id';
/** On the setup-link Secret: which link it holds (the URL itself is never stored in the clear anywhere else). */
export const SETUP_LINK_ID_ANNOTATION = 'dsync.io/setup-link-id';

const MANAGED_BY_KEY = 'app.kubernetes.io/managed-by';
const MANAGED_BY_VALUE = 'dsync-operator';
export const MANAGED_BY_LABEL = { [MANAGED_BY_KEY]: MANAGED_BY_VALUE } as const;
/** The label selector of the Secrets the operator owns (its Secret informer watches only those). */
export const MANAGED_BY_SELECTOR = `${MANAGED_BY_KEY}=${MANAGED_BY_VALUE}`;
/** Every other Secret (the operator watches their metadata only, to notice changes of webhook Secrets). */
export const NOT_MANAGED_BY_SELECTOR = `${MANAGED_BY_KEY}!=${MANAGED_BY_VALUE}`;

export interface MetadataKey {
  kind: 'label' | 'annotation' | 'finalizer';
  key: string;
  /** The value, when it is always the same. */
  value?: string;
  on: string;
  /** `you` for the keys a user sets to ask for something; the operator sets the others. */
  setBy: 'you' | 'the operator';
  meaning: string;
}

const SCIM_SECRET = 'the Secret `<name>-scim`';
const SETUP_SECRET = 'the Secret `<name>-setup`';

export const OPERATOR_METADATA: readonly MetadataKey[] = [
  {
    kind: 'annotation',
    key: ROTATE_ANNOTATION,
    on: 'the DirectoryConnection',
    setBy: 'you',
    meaning: `Any value not used before issues a new SCIM token: ${SCIM_SECRET} gets it, the stored directory follows, and the replaced token keeps working for 7 days beside it. Each value acts once (\`kubectl annotate dconn <name> ${ROTATE_ANNOTATION}="$(date +%s)" --overwrite\`).`,
  },
  {
    kind: 'annotation',
    key: REENABLE_WEBHOOK_ANNOTATION,
    on: 'the DirectoryConnection',
    setBy: 'you',
    meaning:
      'Any value not used before resumes webhook delivery that a 410 Gone from the receiver stopped, with the same URL. Each value acts once.',
  },
  {
    kind: 'label',
    key: MANAGED_BY_KEY,
    value: MANAGED_BY_VALUE,
    on: `${SCIM_SECRET} and ${SETUP_SECRET}`,
    setBy: 'the operator',
    meaning:
      'Marks the Secrets the operator owns: it watches those in full and only the metadata of the others. A Secret of one of these names that the resource does not own is never adopted: the resource reports a conflict.',
  },
  {
    kind: 'annotation',
    key: DIRECTORY_ID_ANNOTATION,
    on: SCIM_SECRET,
    setBy: 'the operator',
    meaning:
      "The stored directory the Secret guards (the DirectoryConnection's uid), known even after an orphaning delete dropped the owner reference.",
  },
  {
    kind: 'annotation',
    key: ROTATED_ANNOTATION,
    on: SCIM_SECRET,
    setBy: 'the operator',
    meaning: `The last \`${ROTATE_ANNOTATION}\` value handled, so that a value rotates the token once.`,
  },
  {
    kind: 'annotation',
    key: REENABLED_WEBHOOK_ANNOTATION,
    on: SCIM_SECRET,
    setBy: 'the operator',
    meaning: `The last \`${REENABLE_WEBHOOK_ANNOTATION}\` value handled (recorded once the store has it), so that a later 410 is not undone by the old value.`,
  },
  {
    kind: 'annotation',
    key: SETUP_LINK_ID_ANNOTATION,
    on: SETUP_SECRET,
    setBy: 'the operator',
    meaning: 'Which setup link the Secret holds (`spec.setupLink`); the link itself is kept nowhere else in the clear.',
  },
  {
    kind: 'finalizer',
    key: FINALIZER,
    on: `${SCIM_SECRET}; the DirectoryConnection while that Secret is replaced (and resources made by versions that put it there)`,
    setBy: 'the operator',
    meaning:
      'Keeps the stored directory from outliving the resource: set in the request that creates the Secret, removed once the stored directory is deleted. With the operator down, deletion waits for it.',
  },
];
