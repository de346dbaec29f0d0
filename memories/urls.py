from django.urls import path

from memories import views

app_name = "memories"

urlpatterns = [
    path("preview/", views.preview, name="preview"),
]
