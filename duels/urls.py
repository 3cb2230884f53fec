
app_name = "duels"

urlpatterns: list = []
