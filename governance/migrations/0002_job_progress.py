from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="jobrun",
            name="done",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="jobrun",
            name="step",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AddField(
            model_name="jobrun",
            name="total",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
