from django.db import migrations, models


class Migration(migrations.Migration):
    """Every match records the rules version of its engine. The matches stored before were all
    played under version 1 of every engine (the first version declared)."""

    dependencies = [
        ("games", "0003_pace"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rules_version",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="the engine's rules version the match is played and replayed under"),
            preserve_default=False,
        ),
    ]
