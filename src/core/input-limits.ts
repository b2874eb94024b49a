/**
 * Input bounds, in one place. Each is enforced with a 400 naming the field (SCIM `tooMany`/`invalidValue`,
 * the management envelope elsewhere), listed in the bounds table of docs/concepts/directories.md and, for SCIM,
 * advertised in
 * ServiceProviderConfig. They bound the work one request can cause; real directories stay far below them.
 */

/** Request bodies (both APIs); an oversized body answers 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

// ---- management API ----------------------------------------------------------------------------------

/** Directory `name`, `tenant`, `product`. */
export const MAX_NAME_LENGTH = 256;
/** Directory, user and group ids in paths and queries (ours are 36 characters). */
export const MAX_ID_LENGTH = 256;
export const MAX_WEBHOOK_URL_LENGTH = 2048;

// ---- SCIM --------------------------------------------------------------------------------------------

/** `userName`, `displayName`, `externalId`: indexed identifiers. */
export const MAX_IDENTIFIER_LENGTH = 1024;
/** Any other string value, extension and custom attributes included (an X.509 certificate fits). */
export const MAX_STRING_LENGTH = 16 * 1024;
/** Attribute names (keys) anywhere in a body; schema URNs are about 60 characters. */
export const MAX_ATTRIBUTE_NAME_LENGTH = 256;
/**
 * Attribute names (keys) of one object anywhere in a SCIM body: the resource, an extension, a complex value, a
 * PATCH operation or its value. Also of a resource and of each of its extensions as stored.
 */
export const MAX_ATTRIBUTES_PER_OBJECT = 1000;
/**
 * Attribute names of one request, every object together (a group's member values aside: they have their own
 * bound), and of one resource as stored, however many PATCHes built it.
 */
export const MAX_ATTRIBUTE_NAMES = 10_000;
/** Values of one multi-valued attribute: emails, phoneNumbers, addresses, roles, entitlements... */
export const MAX_VALUES_PER_ATTRIBUTE = 100;
/** Values of all multi-valued attributes of one request together (group members aside). */
export const MAX_VALUES_PER_REQUEST = 1000;
/** Group member values in one request (POST, PUT or all operations of a PATCH): a 1 MB body of bare ids fits. */
export const MAX_MEMBERS_PER_REQUEST = 100_000;
/** Operations of one PATCH. */
export const MAX_PATCH_OPERATIONS = 1000;
/** Attribute paths in `attributes` or `excludedAttributes` (query parameter or `.search` body). */
export const MAX_PROJECTED_ATTRIBUTES = 100;
/** Characters of a filter (query parameter or `.search` body). */
export const MAX_FILTER_LENGTH = 4096;

/** Control characters: never part of an identifier (they make lookups and logs lie). */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
