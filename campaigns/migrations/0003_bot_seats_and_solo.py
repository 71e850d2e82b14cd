"""Bot seats in campaigns (CampaignSeat.bot, a seat with no user), the seed their choices are
drawn with, and solo campaigns keeping their ASTRA level. Campaigns created before were all
for 2 to 6 players with human seats: each gets the seed 0 (it has no bot to draw for)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaigns', '0002_event_append_only'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='campaign',
            name='seed',
            field=models.BigIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='campaignseat',
            name='bot',
            field=models.CharField(blank=True, choices=[('random', 'Random'), ('greedy', 'Greedy')], default='', max_length=16),
        ),
        migrations.AlterField(
            model_name='campaignseat',
            name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='campaign_seats', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='campaign',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('astra_level__gte', 1), ('astra_level__lte', 8), ('max_players', 1)), models.Q(('astra_level__isnull', True), ('max_players__gt', 1)), _connector='OR'), name='campaign_astra_level_1_to_8_solo_only'),
        ),
        migrations.AddConstraint(
            model_name='campaignseat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('bot', ''), ('user__isnull', False)), models.Q(('bot__in', ['random', 'greedy']), ('user__isnull', True)), _connector='OR'), name='campaign_seat_user_or_bot'),
        ),
    ]
