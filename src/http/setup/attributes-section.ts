/**
 * The setup page's "Attributes" section, on every directory type whose `attribute_mapping` names at least one
 * attribute: the names the application asked for, each with its source (the IT admin fills or changes it), the
 * source paths the IdP actually sent (read from a small sample of the directory's users, never the whole
 * directory), a preview of what a mapping gives a few real users, and "Save". The admin sets sources only: the
 * names are the application's, so adding or removing one is refused. Saving goes through the directories' use
 * case, as a PATCH of the management API does, so the users are evaluated again and their events emitted.
 * Actions: `attributes/preview`, `attributes/save` (form fields `source.<name>`).
 */
import { z } from 'zod';
import { attributeMapping, customAttributesOf, sourcePathsOf } from '../../core/custom-attributes.js';
import { ValidationError } from '../../core/errors.js';
import type { AttributeMapping, Directory, StoredResource } from '../../core/model.js';
import type { Dsync } from '../../service.js';
import { html, type Html } from '../html.js';
import { actionForm } from './fragments.js';
import type { AttributesEdit, AttributesView, SeenPath, SetupAction, SetupView } from './view-types.js';

/** Users read for the paths the IdP sent: enough to see its shape, bounded whatever the directory's size. */
export const SAMPLE_USERS = 20;
/** Users the preview shows. */
export const PREVIEW_USERS = 5;
/** Paths listed, at most (a sample of users with many custom extensions could hold thousands). */
const MAX_PATHS = 300;
const MAX_SHOWN_VALUE = 120;
export const SOURCE_FIELD = 'source.';

/** The form of both actions: `source.<name>` → source (the CSRF token aside). */
const attributesForm = z.record(z.string(), z.string({ error: 'each source must be given once, as text' }));

export const previewAnswer = z.strictObject({
  users: z.array(
    z.strictObject({ id: z.string(), user_name: z.string(), custom_attributes: z.record(z.string(), z.unknown()) }),
  ),
});
export const saveAnswer = z.strictObject({ attribute_mapping: attributeMapping });

/** The names of the directory's mapping; none: the section is not shown and its actions refuse. */
const askedNames = (directory: Pick<Directory, 'attribute_mapping'>): string[] =>
  Object.keys(directory.attribute_mapping ?? {});

async function sample(dsync: Dsync, directoryId: string, count: number): Promise<StoredResource[]> {
  return (await dsync.store.listUsers(directoryId, 0, count)).items;
}

/** The union of the paths the sampled users hold a value at, in the order first seen. */
export function seenPaths(users: readonly StoredResource[]): SeenPath[] {
  const seen = new Map<string, SeenPath>();
  for (const user of users) {
    for (const { path, value } of sourcePathsOf(user.body)) {
      const known = seen.get(path);
      if (known) known.users++;
      else if (seen.size < MAX_PATHS) seen.set(path, { path, example: value, users: 1 });
    }
  }
  return [...seen.values()];
}

/** The section's data for the page, or undefined when the application asked for no attribute. */
export async function attributesView(
  dsync: Dsync,
  directory: Directory,
  edit?: AttributesEdit,
): Promise<AttributesView | undefined> {
  if (askedNames(directory).length === 0) return undefined;
  const users = await sample(dsync, directory.id, SAMPLE_USERS);
  return {
    mapping: edit?.mapping ?? directory.attribute_mapping!,
    seen: seenPaths(users),
    sampled: users.length,
    ...(edit?.preview && { preview: edit.preview }),
  };
}

/**
 * The mapping a form proposes: a source for each name the directory's mapping has, no other name. Checked with
 * the mapping's own schema; an error names the attribute (its `field` is the form field, for the page's script).
 */
export function proposedMapping(directory: Directory, fields: Record<string, unknown>): AttributeMapping {
  const names = askedNames(directory);
  if (names.length === 0) throw new ValidationError('The application asked for no attributes of this directory');
  const { csrf: _csrf, ...rest } = fields;
  const form = attributesForm.safeParse(rest);
  if (!form.success) throw new ValidationError(form.error.issues[0]!.message);
  const given = new Map<string, string>();
  for (const [key, source] of Object.entries(form.data)) {
    const name = key.startsWith(SOURCE_FIELD) ? key.slice(SOURCE_FIELD.length) : undefined;
    if (name === undefined || !names.includes(name)) {
      throw new ValidationError(
        `${name ?? key} is not an attribute the application asked for: only the sources of its attributes can be set here`,
        key,
      );
    }
    given.set(name, source.trim());
  }
  const missing = names.find((name) => !given.has(name));
  if (missing !== undefined)
    throw new ValidationError(
      `${missing}: its source is missing (leave it empty to keep it unmapped)`,
      `${SOURCE_FIELD}${missing}`,
    );
  const parsed = attributeMapping.safeParse(Object.fromEntries(names.map((name) => [name, given.get(name)!])));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path[0] === undefined ? undefined : String(issue.path[0]);
  throw new ValidationError(
    name === undefined ? issue.message : `${name}: ${issue.message}`,
    name === undefined ? undefined : `${SOURCE_FIELD}${name}`,
  );
}

const preview: SetupAction = async ({ dsync, directory, fields }) => {
  const mapping = proposedMapping(directory, fields);
  const users = (await sample(dsync, directory.id, PREVIEW_USERS)).map((u) => ({
    id: u.id,
    user_name: typeof u.body.userName === 'string' ? u.body.userName : u.id,
    custom_attributes: customAttributesOf(u.body, mapping),
  }));
  const data: z.output<typeof previewAnswer> = { users };
  return { data, page: { attributes: { mapping, preview: users } } };
};

const save: SetupAction = async ({ dsync, directory, fields }) => {
  const mapping = proposedMapping(directory, fields);
  const saved = await dsync.directories.update(directory.id, { attribute_mapping: mapping });
  const data: z.output<typeof saveAnswer> = { attribute_mapping: saved.attribute_mapping ?? {} };
  return { data, page: { notice: { kind: 'success', text: "Saved: the users' attributes follow the new sources." } } };
};

export const ATTRIBUTE_ACTIONS: Record<string, SetupAction> = {
  'attributes/preview': preview,
  'attributes/save': save,
};
/** A request for one of these actions may carry a source per attribute: its form is read with larger limits. */
export const isAttributesAction = (name: string): boolean => Object.hasOwn(ATTRIBUTE_ACTIONS, name);

/** A value as the page shows it: text as it is, anything else as JSON, cut short. */
export function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE - 1)}…` : text;
}

function sourceField(name: string, source: string, i: number): Html {
  const id = `attr-${i}`;
  return html`<div class="field attribute-field">
  <label for="${id}"><code>${name}</code></label>
  <input id="${id}" name="${SOURCE_FIELD}${name}" type="text" value="${source}" list="attribute-paths" autocomplete="off" spellcheck="false" data-attribute="${name}" aria-describedby="${id}-hint ${id}-error">
  <p class="hint" id="${id}-hint">${source === '' ? 'Not mapped yet.' : 'Source in use.'}</p>
  <p class="error-text" id="${id}-error" hidden></p>
</div>`;
}

function seenTable(a: AttributesView): Html {
  if (a.seen.length === 0)
    return html`<p id="attribute-paths-none">Nothing received yet: once your identity provider has sent users, what it sends is listed here.</p>`;
  return html`<p class="hint">From the first ${a.sampled} ${a.sampled === 1 ? 'user' : 'users'} of this directory. Select a source field above, then "Use" a path, or type it.</p>
<div class="table-wrap"><table id="attribute-paths-table">
  <caption class="visually-hidden">Source paths your identity provider sent</caption>
  <thead><tr><th scope="col">Path</th><th scope="col">Example value</th><th scope="col">Users</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${a.seen.map(
    (p) =>
      html`<tr><td data-label="Path"><code>${p.path}</code></td><td data-label="Example value">${shownValue(p.example)}</td><td data-label="Users">${p.users} of ${a.sampled}</td><td><button type="button" class="secondary use-path" data-use-path="${p.path}" hidden>Use<span class="visually-hidden"> ${p.path}</span></button></td></tr>`,
  )}</tbody>
</table></div>`;
}

function previewTable(a: AttributesView): Html {
  const names = Object.keys(a.mapping);
  const rows = a.preview ?? [];
  return html`<div id="attributes-preview" role="region" aria-labelledby="attributes-preview-h"${a.preview ? '' : html` hidden`}>
  <h3 id="attributes-preview-h">Preview</h3>
  <p class="hint">What these sources give the first users of this directory (nothing is saved yet).</p>
  <div class="table-wrap"><table id="attributes-preview-table">
    <thead><tr><th scope="col">User</th>${names.map((n) => html`<th scope="col"><code>${n}</code></th>`)}</tr></thead>
    <tbody>${rows.map(
      (u) =>
        html`<tr><td data-label="User">${u.user_name}</td>${names.map((n) => html`<td data-label="${n}">${Object.hasOwn(u.custom_attributes, n) ? shownValue(u.custom_attributes[n]) : '—'}</td>`)}</tr>`,
    )}</tbody>
  </table></div>
</div>`;
}

export function attributesSection(view: SetupView): Html {
  const a = view.attributes;
  if (!a) return html``;
  const managed = view.directory.managed_by !== undefined;
  const fields = html`${Object.entries(a.mapping).map(([name, source], i) => sourceField(name, source, i))}
  <datalist id="attribute-paths">${a.seen.map((p) => html`<option value="${p.path}">${shownValue(p.example)}</option>`)}</datalist>
  <div class="actions">
    <button type="submit" class="secondary" id="attributes-preview-button" formaction="${view.root}${view.link}/attributes/preview" data-action="attributes/preview">Preview</button>
    ${managed ? '' : html`<button type="submit" id="attributes-save">Save</button>`}
  </div>`;
  return html`<section class="card" aria-labelledby="attributes-h" id="attributes">
  <h2 id="attributes-h">Attributes</h2>
  <p>The application reads these attributes of each user. For each, give where your identity provider keeps it: a SCIM attribute
  path (<code>title</code>, <code>addresses[type eq "work"].country</code>, an extension's <code>urn:…:User:badge</code>) or a
  provider field (<code>google:orgUnitPath</code>).</p>
  ${managed ? html`<p class="hint" id="attributes-managed">Your provider manages this connection: preview sources here, and give them the ones to use.</p>` : ''}
  ${actionForm(view, 'attributes/save', fields)}
  ${previewTable(a)}
  <h3>What your identity provider sent</h3>
  ${seenTable(a)}
</section>`;
}
