import pytest
from django.urls import reverse

from memories import lifecycle
from memories.models import AuditEvent, Memory, MemorySettings, Message
from tests.factories import add_memory


@pytest.fixture
def owner_client(client, django_user_model):
    owner = django_user_model.objects.create_superuser("owner", "owner@example.com", "correct horse battery")
    client.force_login(owner)
    return client


@pytest.mark.parametrize("model", ["memory", "auditevent", "message"])
def test_changelists_use_a_fixed_number_of_queries(owner_client, django_assert_max_num_queries, model):
    for i in range(60):
        memory = add_memory(f"Memory number {i} about Hà Nội.")
        lifecycle.pin(memory.pk, actor="owner:test")
        Message.objects.create(role="user", text=f"message {i}")
    with django_assert_max_num_queries(12):
        response = owner_client.get(reverse(f"admin:memories_{model}_changelist"))
    assert response.status_code == 200


def test_memory_search_uses_the_diacritics_insensitive_index(owner_client):
    hanoi = add_memory("Người dùng sống ở Hà Nội.")
    add_memory("User lives in Berlin.")
    response = owner_client.get(reverse("admin:memories_memory_changelist"), {"q": "ha noi"})
    assert list(response.context["cl"].result_list) == [hanoi]


def test_memories_cannot_be_added_or_edited_in_the_admin(owner_client):
    memory = add_memory()
    assert owner_client.get(reverse("admin:memories_memory_add")).status_code == 403
    owner_client.post(reverse("admin:memories_memory_change", args=[memory.pk]), {"text": "changed"})
    memory.refresh_from_db()
    assert memory.text == "User prefers concise replies."


def test_deleting_in_the_admin_is_forgetting(owner_client):
    memory = add_memory()
    response = owner_client.post(reverse("admin:memories_memory_delete", args=[memory.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Memory.objects.exists()
    forget = AuditEvent.objects.get(memory_id=memory.pk, event="forget")
    assert forget.actor == "owner:owner" and forget.text_sha256 == lifecycle.text_sha256(memory.text)


def test_actions_go_through_the_write_path(owner_client):
    pending = add_memory(status="pending")
    live = add_memory()
    url = reverse("admin:memories_memory_changelist")
    owner_client.post(url, {"action": "approve", "_selected_action": [pending.pk]})
    owner_client.post(url, {"action": "pin", "_selected_action": [pending.pk, live.pk]})
    assert Memory.objects.filter(status="approved", pinned=True).count() == 2
    assert AuditEvent.objects.filter(event="pin", actor="owner:owner").count() == 2
    response = owner_client.post(url, {"action": "approve", "_selected_action": [live.pk]}, follow=True)
    assert "not pending" in [str(m) for m in response.context["messages"]][-1]


def test_settings_changes_are_policy_events(owner_client):
    response = owner_client.get(reverse("admin:memories_memorysettings_changelist"))
    assert response.status_code == 302
    url = reverse("admin:memories_memorysettings_change", args=[1])
    response = owner_client.post(
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
