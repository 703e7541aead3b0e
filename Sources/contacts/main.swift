print("contacts")
