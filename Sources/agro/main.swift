import AgroDomain
print("agro")
