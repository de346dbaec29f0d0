from django.urls import path

from review import views

app_name = "review"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("pending/", views.pending, name="pending"),
    path("pending/decide/", views.decide_selected, name="pending-decide"),
    path("pending/filtered/", views.decide_filtered, name="pending-filtered"),
    path("pending/reject-all/", views.reject_all, name="pending-reject-all"),
    path("pending/deletions/", views.decide_deletions, name="pending-deletions"),
    path("pending/<int:memory_id>/", views.pending_item, name="pending-item"),
    path("pending/<int:memory_id>/edit/", views.edit_proposal, name="pending-edit"),
    path("pending/<int:memory_id>/approve/", views.decide_one, {"decision": "approve"}, name="pending-approve"),
    path("pending/<int:memory_id>/reject/", views.decide_one, {"decision": "reject"}, name="pending-reject"),
    path("pending/<int:memory_id>/approve-update/", views.approve_update, name="pending-approve-update"),
    path("pending/<int:memory_id>/approve-core/", views.approve_into_core, name="pending-approve-core"),
    path("memories/", views.memory_list, name="memory-list"),
    path("memories/bulk/", views.memory_bulk, name="memory-bulk"),
    path("memories/add/", views.memory_add, name="memory-add"),
    path("memories/<int:memory_id>/", views.memory_detail, name="memory-detail"),
    path("core/", views.core_profile, name="core-profile"),
    path("core/<int:memory_id>/promote/", views.core_move, {"direction": "promote"}, name="core-promote"),
    path("core/<int:memory_id>/demote/", views.core_move, {"direction": "demote"}, name="core-demote"),
    path("memories/<int:memory_id>/edit/", views.memory_edit, name="memory-edit"),
    path("memories/<int:memory_id>/pin/", views.memory_change, {"action": "pin"}, name="memory-pin"),
    path("memories/<int:memory_id>/unpin/", views.memory_change, {"action": "unpin"}, name="memory-unpin"),
    path("memories/<int:memory_id>/confirm/", views.memory_change, {"action": "confirm"}, name="memory-confirm"),
    path("history/<int:event_id>/revert/", views.revert_event, name="history-revert"),
    path("undo/", views.undo_change, name="undo"),
    path("export/", views.export, name="export"),
    path("review/", views.drift_review, name="drift"),
    path("review/<int:memory_id>/", views.drift_decide, name="drift-decide"),
]
