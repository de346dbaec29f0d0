import os
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from bestie_site.management.commands.serve import console_url


class Command(BaseCommand):
    help = (
        "Make sure the owner can log in: create the owner account on first run "
        "(password from BESTIE_OWNER_PASSWORD, or a generated one shown once)."
    )

    def handle(self, **options):
        User = get_user_model()
        username = os.environ.get("BESTIE_OWNER_USERNAME") or "owner"
        password = os.environ.get("BESTIE_OWNER_PASSWORD")
        superusers = User.objects.filter(is_superuser=True)
        owner = superusers.filter(username=username).first() or superusers.order_by("pk").first()
        if password:
            try:
                validate_password(password, user=owner or User(username=username))
            except ValidationError as error:
                raise CommandError(
                    "BESTIE_OWNER_PASSWORD is not a password the console accepts: " + " ".join(error.messages)
                ) from None

        if owner is None:
            if User.objects.filter(username=username).exists():
                raise CommandError(
                    f"A user named {username!r} exists but is not a superuser; "
                    "make one with: .venv/bin/python manage.py createsuperuser"
                )
            generated = not password
            password = password or secrets.token_urlsafe(12)
            User.objects.create_superuser(username=username, password=password)
            self.stdout.write(self.style.SUCCESS("Created the owner account of Bestie Memory."))
            self.stdout.write(f"  Open:     {console_url()}")
            self.stdout.write(f"  Username: {username}")
            self.stdout.write(f"  Password: {password}")
            if generated:
                self.stdout.write(
                    "This password is shown only this once: keep it, or set BESTIE_OWNER_PASSWORD, "
                    f"or change it with: .venv/bin/python manage.py changepassword {username}"
                )
            return

        if password:
            if not owner.check_password(password):
                owner.set_password(password)
                owner.save(update_fields=["password"])
                self.stdout.write(f"Set the password of {owner.username!r} from BESTIE_OWNER_PASSWORD.")
            self.stdout.write(f"Log in at {console_url()} as {owner.username!r} with BESTIE_OWNER_PASSWORD.")
        else:
            self.stdout.write(
                f"Log in at {console_url()} as {owner.username!r}. Forgot the password? "
                f"Reset it with: .venv/bin/python manage.py changepassword {owner.username}"
            )
