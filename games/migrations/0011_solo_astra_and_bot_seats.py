"""Solo games against ASTRA (games.Game.astra_level) and bot seats (games.Seat.bot, a seat
with no user). Existing games and seats are left as they are: one-player games created before
keep no level (they play the multiplayer rules alone), every existing seat is a user's."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_client_token'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='astra_level',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='bot',
            field=models.CharField(blank=True, choices=[('random', 'Random'), ('greedy', 'Greedy')], default='', max_length=16),
        ),
        migrations.AlterField(
            model_name='seat',
            name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(condition=models.Q(('astra_level__isnull', True), models.Q(('astra_level__gte', 1), ('astra_level__lte', 8), ('max_players', 1)), _connector='OR'), name='game_astra_level_1_to_8_solo_only'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('bot', ''), ('user__isnull', False)), models.Q(('bot__in', ['random', 'greedy']), ('user__isnull', True)), _connector='OR'), name='seat_user_or_bot'),
        ),
    ]
