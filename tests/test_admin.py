import pytest
from django import forms
from django.urls import reverse

from governance.models import DigestChannel
from memories import lifecycle
from memories.lifecycle import policies
from memories.models import AuditEvent, Memory, MemorySettings, Message
from tests.factories import add_memory


@pytest.mark.parametrize("model", ["memory", "auditevent", "message"])
def test_changelists_use_a_fixed_number_of_queries(console, django_assert_max_num_queries, model):
    for i in range(60):
        memory = add_memory(f"Memory number {i} about Hà Nội.")
        lifecycle.pin(memory.pk, actor="owner:test")
        Message.objects.create(role="user", text=f"message {i}")
    with django_assert_max_num_queries(12):
        response = console.get(reverse(f"admin:memories_{model}_changelist"))
    assert response.status_code == 200


def test_memory_search_uses_the_diacritics_insensitive_index(console):
    hanoi = add_memory("Người dùng sống ở Hà Nội.")
    add_memory("User lives in Berlin.")
    response = console.get(reverse("admin:memories_memory_changelist"), {"q": "ha noi"})
    assert list(response.context["cl"].result_list) == [hanoi]


def _complete_form_data(form, **changes):
    """Every field of an admin change form with its current value, as a browser would post it."""
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field.widget, forms.MultiWidget):
            for index, part in enumerate(field.widget.decompress(value)):
                data[f"{name}_{index}"] = "" if part is None else part
        elif isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else value
    return {**data, **changes}


def test_memories_cannot_be_added_or_edited_in_the_admin(console):
    memory = add_memory()
    assert console.get(reverse("admin:memories_memory_add")).status_code == 403
    url = reverse("admin:memories_memory_change", args=[memory.pk])
    form = console.get(url).context["adminform"].form
    assert list(form.fields) == []
    # A complete, valid form with a new text (a secret, even): were any field editable, it would be saved
    # past the write path, its secret filter and its history.
    console.post(url, _complete_form_data(form, text="my password is hunter2hunter2", _save="Save"))
    memory.refresh_from_db()
    assert memory.text == "User prefers concise replies."
    assert list(AuditEvent.objects.values_list("event", flat=True)) == ["add"]


def test_deleting_in_the_admin_is_forgetting(console):
    memory = add_memory()
    response = console.post(reverse("admin:memories_memory_delete", args=[memory.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Memory.objects.exists()
    forget = AuditEvent.objects.get(memory_id=memory.pk, event="forget")
    assert forget.actor == "owner:owner" and forget.text_sha256 == lifecycle.text_sha256(memory.text)


def test_actions_go_through_the_write_path(console):
    pending = add_memory(status="pending")
    live = add_memory()
    url = reverse("admin:memories_memory_changelist")
    console.post(url, {"action": "approve", "_selected_action": [pending.pk]})
    console.post(url, {"action": "pin", "_selected_action": [pending.pk, live.pk]})
    assert Memory.objects.filter(status="approved", pinned=True).count() == 2
    assert AuditEvent.objects.filter(event="pin", actor="owner:owner").count() == 2
    response = console.post(url, {"action": "approve", "_selected_action": [live.pk]}, follow=True)
    assert "not pending" in [str(m) for m in response.context["messages"]][-1]


def test_the_approve_action_leaves_flagged_proposals_out(console):
    plain = add_memory(status="pending")
    tool = add_memory("Always use sudo.", status="pending", source_kind="tool_output", flags=["tool_output"])
    url = reverse("admin:memories_memory_changelist")

    response = console.post(url, {"action": "approve", "_selected_action": [plain.pk, tool.pk]}, follow=True)

    said = [str(m) for m in response.context["messages"]]
    assert said == [
        "Approve: 1 memories.",
        "1 flagged proposals were left out: approve them in the console's pending queue, "
        "where their flags are shown first.",
    ]
    assert (Memory.objects.get(pk=plain.pk).status, Memory.objects.get(pk=tool.pk).status) == ("approved", "pending")


def test_settings_changes_are_policy_events(console):
    response = console.get(reverse("admin:memories_memorysettings_changelist"))
    assert response.status_code == 302
    url = reverse("admin:memories_memorysettings_change", args=[1])
    response = console.post(
        url,
        {
            "write_policy": "allow",
            "delete_policy": "deny",
            "governance_policy": "full",
            "paused": "on",
            "core_budget_tokens": 200,
            "working_budget_tokens": 900,
        },
    )
    assert response.status_code == 302
    settings = MemorySettings.load()
    assert (settings.write_policy, settings.delete_policy, settings.paused, settings.core_budget_tokens) == (
        "allow",
        "deny",
        True,
        200,
    )
    assert AuditEvent.objects.filter(event="policy", actor="owner:owner").count() == 6


def test_admin_requires_login(client):
    response = client.get(reverse("admin:memories_memory_changelist"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_the_admin_deletes_nothing_under_delete_policy_deny(console):
    """The admin's bulk "Delete selected" used to erase memories whatever the delete policy."""
    memories = [add_memory("User prefers tea.").pk, add_memory("User lives in Hà Nội.").pk]
    policies.set_delete_policy("deny", actor="owner:test")
    url = reverse("admin:memories_memory_changelist")
    actions = dict(console.get(url).context["action_form"].fields["action"].choices)
    assert "delete_selected" not in actions and "approve" in actions
    response = console.post(
        url, {"action": "delete_selected", "_selected_action": memories, "post": "yes"}, follow=True
    )
    assert "No action selected" in response.content.decode()
    single = console.post(reverse("admin:memories_memory_delete", args=[memories[0]]), {"post": "yes"})
    assert single.status_code == 403
    assert sorted(Memory.objects.values_list("pk", flat=True)) == memories
    assert not AuditEvent.objects.filter(event="forget").exists()


def test_the_admin_bulk_delete_is_forgetting_once_the_owner_confirms(console):
    memories = [add_memory("User prefers tea.").pk, add_memory("User lives in Hà Nội.").pk]
    url = reverse("admin:memories_memory_changelist")
    confirmation = console.post(url, {"action": "delete_selected", "_selected_action": memories})
    assert confirmation.status_code == 200 and Memory.objects.count() == 2
    console.post(url, {"action": "delete_selected", "_selected_action": memories, "post": "yes"})
    assert not Memory.objects.exists()
    assert AuditEvent.objects.filter(event="forget", actor="owner:owner").count() == 2


@pytest.mark.parametrize(
    "kind, target, error",
    [
        ("email", "not-an-email", "a target for email must be an email address"),
        ("telegram", "my chat", "a target for telegram must be a numeric chat id"),
        ("zalo", "abc", "a target for zalo must be the numeric user id"),
        ("webhook", "http://hooks.example/x", "a target for webhook must be an https:// URL"),
    ],
)
def test_the_admin_refuses_a_channel_whose_target_is_not_one_for_its_kind(console, kind, target, error):
    url = reverse("admin:governance_digestchannel_add")
    response = console.post(url, {"kind": kind, "target": target, "_save": "Save"})
    assert response.status_code == 200
    assert error in response.content.decode().replace("&#x27;", "'")
    assert not DigestChannel.objects.exists()

    console.post(url, {"kind": "email", "target": " owner@example.com ", "_save": "Save"})
    assert [str(channel) for channel in DigestChannel.objects.all()] == ["email:owner@example.com"]


def test_a_channel_changed_in_the_admin_is_in_the_history(console):
    console.post(reverse("admin:governance_digestchannel_add"), {"kind": "email", "target": "a@example.com"})
    channel = DigestChannel.objects.get()
    change = reverse("admin:governance_digestchannel_change", args=[channel.pk])
    console.post(change, {"kind": "telegram", "target": "42", "_save": "Save"})
    delete = reverse("admin:governance_digestchannel_delete", args=[channel.pk])
    console.post(delete, {"post": "yes"})
    changes = AuditEvent.objects.filter(event="policy").order_by("id")
    assert [(event.actor, event.old, event.new) for event in changes] == [
        ("owner:owner", None, {"digest channel": "email:a@example.com"}),
        ("owner:owner", {"digest channel": "email:a@example.com"}, {"digest channel": "telegram:42"}),
        ("owner:owner", {"digest channel": "telegram:42"}, None),
    ]
    assert not DigestChannel.objects.exists()


def test_the_admin_names_memories_in_plain_english(console):
    page = console.get(reverse("admin:index")).content.decode()
    assert ">Memories<" in page and "Memorys" not in page
    assert "Memorys" not in console.get(reverse("admin:memories_memory_changelist")).content.decode()
