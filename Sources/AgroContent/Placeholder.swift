import AgroStore
