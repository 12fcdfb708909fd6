import AgroDomain
