"""The live scenario with the Python client openapi-generator made: create a directory, let an IdP push a user
and a group over SCIM (plain HTTP, as an IdP would), list the users, read the events and narrow them by type.
Prints one line per step; test/conformance/openapi-clients.test.ts checks them. Usage: scenario.py BASE_URL API_KEY"""
import json
import sys
import urllib.request

import dsync_client
from dsync_client.models import CreateDirectoryInput, GroupUserAddedEvent, UserCreatedEvent

base, key = sys.argv[1], sys.argv[2]


def scim(directory, path, body):
    request = urllib.request.Request(
        directory.scim.endpoint + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": "Bearer " + directory.scim.secret, "Content-Type": "application/scim+json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


config = dsync_client.Configuration(host=base, api_key={"ApiKey": "Api-Key " + key})
with dsync_client.ApiClient(config) as client:
    created = dsync_client.DirectoriesApi(client).create_directory(
        CreateDirectoryInput(name="Acme", tenant="acme-py", product="app", type="okta-scim-v2")
    )
    directory = created.data
    print("created", directory.type)
    ann = scim(directory, "/Users", {"userName": "ann@acme.io", "name": {"givenName": "Ann", "familyName": "Lee"}, "emails": [{"value": "ann@acme.io", "primary": True}]})
    scim(directory, "/Groups", {"displayName": "Engineering", "members": [{"value": ann["id"]}]})

    users = dsync_client.UsersAndGroupsApi(client).list_users(directory_id=directory.id)
    print("users", ",".join(u.email for u in users.data))

    page = dsync_client.EventsAndDeliveryApi(client).list_events(id=directory.id)
    print("events", ",".join(e.actual_instance.event for e in page.data.events))
    for e in page.data.events:
        event = e.actual_instance
        if isinstance(event, GroupUserAddedEvent):
            print("added", event.data.first_name, "to", event.data.group.name)
        elif isinstance(event, UserCreatedEvent):
            print("user", event.data.email, "active", event.data.active)

    try:
        dsync_client.DirectoriesApi(client).get_directory(id="no-such-directory")
    except dsync_client.exceptions.NotFoundException as e:
        print("missing", json.loads(e.body)["error"]["code"])
