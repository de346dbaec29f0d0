import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0002_job_progress"),
    ]

    operations = [
        migrations.CreateModel(
            name="Checkup",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("computed_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ("last_event_id", models.BigIntegerField(blank=True, null=True)),
                ("report", models.JSONField(default=dict)),
                ("score", models.JSONField(default=dict)),
                ("plan", models.JSONField(default=dict)),
            ],
            options={
                "db_table": "governance_checkup",
                "ordering": ["-computed_at", "-id"],
            },
        ),
    ]
